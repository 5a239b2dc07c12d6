package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * PMIx connect and disconnect at the head: a collective over every daemon that hosts one of the
 * participants. A daemon's PMIx server asks once all its local participants called
 * ({@link OverlayMessage.NameRequest#CONNECT}); every daemon that asked gets its answer when the
 * last one did. The head knows every job's map, so it knows which daemons will ask.
 *
 * <p>The request's name is {@code KIND PARTICIPANTS}: a word (connect, disconnect) and the
 * participants as {@code namespace:rank} separated by commas, rank -2 for all of a job's ranks
 * (PMIx's wildcard). Daemons write it the same way, so equal names are the same operation. A
 * fence over several jobs (kind {@code fence}) carries each daemon's data as the request's port
 * (base64); every answer holds them all, in daemon order, separated by commas.
 */
final class ConnectRendezvous {
    static final int ALL_RANKS = -2;

    /** An operation in progress: the daemons it waits for, the jobs taking part, and the requests it holds. */
    private record Open(Set<Integer> expected, Set<Integer> jobs, List<OverlayMessage.NameRequest> asked) {}

    /** Whom an operation waits for: daemons, and the jobs of its participants. */
    record Participants(Set<Integer> daemons, Set<Integer> jobs) {}

    private final Map<String, Open> open = new TreeMap<>();

    /**
     * A daemon asked: the answers once every daemon involved did (none before), or a refusal at
     * once when a participant's job is not running.
     */
    List<OverlayMessage.NameReply> enter(OverlayMessage.NameRequest r, Function<String, RankMap> mapOfJob) {
        Open op = open.get(r.name());
        if (op == null) {
            Participants who;
            try {
                who = participants(r.name(), mapOfJob);
            } catch (IllegalArgumentException e) {
                return List.of(reply(r, false, e.getMessage()));
            }
            op = new Open(who.daemons(), who.jobs(), new ArrayList<>());
            open.put(r.name(), op);
        }
        op.asked().add(r);
        Set<Integer> in = new HashSet<>();
        op.asked().forEach(a -> in.add(a.from()));
        if (!in.containsAll(op.expected())) {
            return List.of();
        }
        open.remove(r.name());
        // a fence's blobs, in daemon order, to every daemon (empty for a connect)
        List<String> blobs = new ArrayList<>();
        op.asked().stream().sorted(java.util.Comparator.comparingInt(OverlayMessage.NameRequest::from))
                .filter(a -> !a.port().isEmpty()).forEach(a -> blobs.add(a.port()));
        String all = String.join(",", blobs);
        List<OverlayMessage.NameReply> out = new ArrayList<>();
        op.asked().forEach(a -> out.add(reply(a, true, all)));
        return out;
    }

    /**
     * Job {@code jobId} is over: an operation it takes part in can never complete, so the daemons
     * that asked (other jobs' ranks, blocked in PMIx_Connect) get a refusal rather than wait for
     * ever. Its own daemons are not answered: they have forgotten the job.
     */
    List<OverlayMessage.NameReply> forget(int jobId) {
        List<OverlayMessage.NameReply> out = new ArrayList<>();
        for (var it = open.values().iterator(); it.hasNext(); ) {
            Open op = it.next();
            if (op.jobs().contains(jobId)) {
                it.remove();
                op.asked().stream().filter(a -> a.jobId() != jobId)
                        .forEach(a -> out.add(reply(a, false, "participant_ended")));
            }
        }
        return out;
    }

    /** The daemons hosting the participants the name lists, and their jobs. */
    static Participants participants(String name, Function<String, RankMap> mapOfJob) {
        int space = name.indexOf(' ');
        Set<Integer> daemons = new HashSet<>();
        Set<Integer> jobs = new HashSet<>();
        for (String p : name.substring(space + 1).split(",")) {
            int colon = p.lastIndexOf(':');
            int rank;
            try {
                rank = Integer.parseInt(p.substring(colon + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("bad_participant");
            }
            RankMap map = mapOfJob.apply(p.substring(0, colon));
            if (map == null) {
                throw new IllegalArgumentException("no_such_job");
            }
            jobs.add(map.job().jobId());
            if (rank == ALL_RANKS) {
                for (int n = 0; n < map.job().nodes().size(); n++) {
                    if (map.ranksOn(n) > 0) {
                        daemons.add(n);
                    }
                }
            } else if (rank >= 0 && rank < map.size()) {
                daemons.add(map.nodeOf(rank));
            } else {
                throw new IllegalArgumentException("no_such_rank");
            }
        }
        return new Participants(daemons, jobs);
    }

    private static OverlayMessage.NameReply reply(OverlayMessage.NameRequest r, boolean ok, String answer) {
        return new OverlayMessage.NameReply(r.jobId(), Topology.daemonOfVertex(0), r.from(), r.request(), r.op(), ok, answer);
    }
}
