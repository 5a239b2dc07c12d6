package org.banyan.comm;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.client.Banyan;
import org.banyan.client.BanyanException;

/**
 * The world two groups of processes build to talk to each other (after MPI_Comm_spawn, or
 * MPI_Comm_accept and MPI_Comm_connect), and the intercommunicator over it. Its ranks are the
 * first group's then the other's, and it is built by the same steps as a job's world
 * ({@link World#create}), each exchange of endpoints carried by the name service of the run (or
 * DVM) both belong to: each group gathers its ranks' cards at its root, the root publishes them
 * under {@code SERVICE/SEQ/parents} (or {@code children}), waits for the other group's, removes
 * that name, and hands both to its group. The first group's root draws the world's secret (256
 * bits), which its TCP connections prove; it travels with that group's cards, through the name
 * service, which only the run's ranks reach. The intercommunicator is the world split into the
 * two groups; closing it (MPI_Comm_disconnect) closes the world, collectively over both groups,
 * and closing a job's own world closes those still open first.
 */
final class JointWorld {
    /** Characters of a group's cards per published name (a PMI-2 frame's body is at most 64 KiB). */
    static final int PAGE = 24_000;
    private static final String HOST = "spawn.host";
    private static final String SECRET = "secret=";
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * How a side names its failures: {@code what} the call ("spawn", "connect"), {@code late} what
     * went wrong when the other group did not come, and how long it waits for it (0: while the
     * job runs).
     */
    record Side(String what, String late, int timeoutSeconds) {}

    private JointWorld() {}

    /**
     * Builds the joint world of both groups and the intercommunicator over it; collective over
     * {@code group}, whose rank {@code root} speaks for it; {@code parents}: this group comes
     * first and its root draws the secret (the other group must say false).
     */
    static Intercomm build(Comm group, int root, Banyan job, String service, boolean parents, Side side) {
        Joint endpoints = new Joint(group, root, job, service, parents, side);
        endpoints.exchange(); // hosts and the secret first: the transports need both as they are built
        int others = endpoints.cards.size() - group.size();
        int parentsSize = parents ? group.size() : others;
        int jointRank = parents ? group.rank() : parentsSize + group.rank();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("BANYAN_MONITOR"); // the program's world writes the profile; this one would overwrite it
        env.remove("BANYAN_COMM_TOPOLOGY");
        Comm joint = World.create(jointRank, endpoints.cards.size(), endpoints, env);
        // its communicators are this job's ranks' too: one merged from the intercommunicator spawns,
        // connects, joins and aborts as the job's world does ("not a rank of a Banyan job" before)
        joint.engine.job = job;
        joint.engine.parent = group.engine.parent; // MPI_Comm_get_parent is the process's, whichever communicator asks
        Comm local = joint.split(parents ? 0 : 1, jointRank);
        Intercomm inter = Intercomm.create(local, 0, joint, parents ? parentsSize : 0, 0);
        Engine engine = group.engine;
        inter.onClose = () -> {
            engine.connected.remove(inter);
            joint.close();
        };
        engine.connected.add(inter);
        return inter;
    }

    /** The joint world's endpoints: each exchange goes through the group, its root and the name service. */
    private static final class Joint implements Endpoints {
        private final Comm group;
        private final int root;
        private final Banyan job;
        private final String service;
        private final boolean parents;
        private final Side side;
        private final Map<String, String> card = new LinkedHashMap<>();
        final List<Map<String, String>> cards = new ArrayList<>();
        private byte[] secret;
        private int seq;

        Joint(Comm group, int root, Banyan job, String service, boolean parents, Side side) {
            this.group = group;
            this.root = root;
            this.job = job;
            this.service = service;
            this.parents = parents;
            this.side = side;
            card.put(HOST, job.peer(job.rank()).host());
        }

        @Override
        public void publish(String key, String value) {
            if (value.indexOf('\n') >= 0 || value.indexOf('\f') >= 0 || key.indexOf('=') >= 0) {
                throw new IllegalArgumentException("an endpoint that does not fit a card: " + key);
            }
            card.put(key, value);
        }

        @Override
        public void exchange() {
            StringBuilder text = new StringBuilder();
            card.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
            List<String> mine = allgatherText(group, text.toString());
            String both = null;
            if (group.rank() == root) {
                both = meet(mine);
            }
            both = bcastText(group, both, root);
            if (both.startsWith("error ")) {
                throw new CommException(side.what() + ": " + both.substring(6));
            }
            cards.clear();
            for (String c : both.split("\f", -1)) {
                if (c.startsWith(SECRET)) {
                    secret = HexFormat.of().parseHex(c.substring(SECRET.length()));
                } else if (!c.isEmpty()) {
                    Map<String, String> m = new LinkedHashMap<>();
                    for (String line : c.split("\n")) {
                        int eq = line.indexOf('=');
                        if (eq > 0) {
                            m.put(line.substring(0, eq), line.substring(eq + 1));
                        }
                    }
                    cards.add(m);
                }
            }
        }

        /** At the root: this group's cards out, the other's in; both, parents first, or "error REASON". */
        private String meet(List<String> mine) {
            seq++;
            StringBuilder block = new StringBuilder();
            for (String c : mine) {
                block.append(c).append('\f');
            }
            if (parents && seq == 1) {
                byte[] s = new byte[32];
                RANDOM.nextBytes(s);
                block.append(SECRET).append(HexFormat.of().formatHex(s)).append('\f');
            }
            String base = service + "/" + seq + "/";
            try {
                publishPages(base + (parents ? "parents" : "children"), block.toString());
                String theirs = lookupPages(base + (parents ? "children" : "parents"));
                return parents ? block + theirs : theirs + block;
            } catch (RuntimeException e) { // any: the group waits for this root's word
                String why = String.valueOf(e.getMessage());
                if (e instanceof BanyanException && why.endsWith("timeout")) {
                    return "error " + side.late() + " within " + side.timeoutSeconds() + " s (" + why + ")";
                }
                return "error " + (e instanceof BanyanException ? why : "the other group's endpoints are garbled (" + e + ")");
            }
        }

        /** Pages 1.. first, page 0 last with their count: whoever finds page 0 finds them all. */
        private void publishPages(String name, String block) {
            int pages = Math.max(1, (block.length() + PAGE - 1) / PAGE);
            for (int p = pages - 1; p >= 0; p--) {
                String page = block.substring(p * PAGE, Math.min(block.length(), (p + 1) * PAGE));
                job.publishName(name + "#" + p, p == 0 ? pages + "|" + page : page);
            }
        }

        /** The other group's block; its names are removed once read (each is read once). */
        private String lookupPages(String name) {
            String first = job.lookupName(name + "#0", side.timeoutSeconds() == 0 ? null : Duration.ofSeconds(side.timeoutSeconds()));
            job.unpublishName(name + "#0");
            int bar = first.indexOf('|');
            int pages = Integer.parseInt(first.substring(0, bar));
            StringBuilder block = new StringBuilder(first.substring(bar + 1));
            for (int p = 1; p < pages; p++) {
                block.append(job.lookupName(name + "#" + p, Duration.ZERO));
                job.unpublishName(name + "#" + p);
            }
            return block.toString();
        }

        @Override
        public String lookup(int rank, String key) {
            return cards.get(rank).get(key);
        }

        @Override
        public String host(int rank) {
            return cards.get(rank).get(HOST);
        }

        @Override
        public byte[] secret() {
            return secret;
        }
    }

    /** {@code text} (significant at {@code root}) on every rank of {@code comm}. */
    static String bcastText(Comm comm, String text, int root) {
        byte[] bytes = comm.rank() == root ? text.getBytes(StandardCharsets.UTF_8) : null;
        int[] length = {bytes == null ? 0 : bytes.length};
        comm.bcast(length, root);
        if (bytes == null) {
            bytes = new byte[length[0]];
        }
        comm.bcast(bytes, root);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Every rank's {@code text}, in rank order. */
    static List<String> allgatherText(Comm comm, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int[] lengths = new int[comm.size()];
        comm.allgather(new int[] {bytes.length}, lengths);
        int[] displs = new int[comm.size()];
        for (int r = 1; r < displs.length; r++) {
            displs[r] = displs[r - 1] + lengths[r - 1];
        }
        byte[] all = new byte[displs[displs.length - 1] + lengths[lengths.length - 1]];
        comm.allgatherv(bytes, all, lengths, displs);
        List<String> out = new ArrayList<>(comm.size());
        for (int r = 0; r < comm.size(); r++) {
            out.add(new String(all, displs[r], lengths[r], StandardCharsets.UTF_8));
        }
        return out;
    }

    /**
     * Seconds from {@code variable}, else {@code fallback}; a value that is not a whole number of
     * seconds from 1 up is refused (read on every rank before anything starts, so the group fails
     * together instead of waiting a default the user did not ask for).
     */
    static int seconds(String what, String variable, int fallback) {
        return seconds(what, variable, System.getenv(variable), fallback);
    }

    static int seconds(String what, String variable, String text, int fallback) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            int s = Integer.parseInt(text.strip());
            if (s >= 1) {
                return s;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new CommException(what + ": " + variable + "=" + text + " is not a whole number of seconds (at least 1)");
    }
}
