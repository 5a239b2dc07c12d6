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

    /** An operation in progress: the daemons it waits for and the requests it holds. */
    private record Open(Set<Integer> expected, List<OverlayMessage.NameRequest> asked) {}

    private final Map<String, Open> open = new TreeMap<>();

    /**
     * A daemon asked: the answers once every daemon involved did (none before), or a refusal at
     * once when a participant's job is not running.
     */
    List<OverlayMessage.NameReply> enter(OverlayMessage.NameRequest r, Function<String, RankMap> mapOfJob) {
        Open op = open.get(r.name());
        if (op == null) {
            Set<Integer> daemons;
            try {
                daemons = daemonsOf(r.name(), mapOfJob);
            } catch (IllegalArgumentException e) {
                return List.of(reply(r, false, e.getMessage()));
            }
            op = new Open(daemons, new ArrayList<>());
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

    /** The daemons hosting the participants the name lists. */
    static Set<Integer> daemonsOf(String name, Function<String, RankMap> mapOfJob) {
        int space = name.indexOf(' ');
        Set<Integer> daemons = new HashSet<>();
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
        return daemons;
    }

    private static OverlayMessage.NameReply reply(OverlayMessage.NameRequest r, boolean ok, String answer) {
        return new OverlayMessage.NameReply(r.jobId(), Topology.daemonOfVertex(0), r.from(), r.request(), r.op(), ok, answer);
    }
}
