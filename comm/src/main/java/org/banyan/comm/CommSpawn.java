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
 * MPI_Comm_spawn and MPI_Comm_get_parent. The spawning group's root asks the run to start the
 * children as a new job of it (PMI-2's {@code banyan-spawn}), giving them, in
 * {@code BANYAN_COMM_PARENT}, the name under which the two groups meet. Both groups then build
 * one joint world of their own — parents first, then children — by the same steps as a job's
 * world ({@link World#create}), each exchange of endpoints carried by the run's name service:
 * each group gathers its ranks' cards at its root, the root publishes them under
 * {@code SERVICE/SEQ/parents} (or {@code children}), waits for the other group's, removes that
 * name, and hands both to its group. The parents' root draws the joint world's secret (256
 * bits), which its TCP connections prove; it travels with the parents' cards, through the run's
 * name service, which only the run's ranks reach. The intercommunicator is the joint world split
 * into the two groups; closing it (MPI_Comm_disconnect) closes the joint world, collectively
 * over both groups.
 */
final class CommSpawn {
    /** Where a spawned job finds the name its parents wait under. */
    static final String PARENT_VARIABLE = "BANYAN_COMM_PARENT";
    /** How long a group waits for the other at each exchange: seconds, default {@link #DEFAULT_TIMEOUT}. */
    static final String TIMEOUT_VARIABLE = "BANYAN_COMM_SPAWN_TIMEOUT";
    static final int DEFAULT_TIMEOUT = 120;
    /** Characters of a group's cards per published name (a PMI-2 frame's body is at most 64 KiB). */
    static final int PAGE = 24_000;
    private static final String HOST = "spawn.host";
    private static final String SECRET = "secret=";
    private static final SecureRandom RANDOM = new SecureRandom();

    private CommSpawn() {}

    /**
     * MPI_Comm_spawn(_multiple): the processes {@code apps} describe, on {@code hosts} (none:
     * where the run places them), both read at {@code root} only; an intercommunicator to them.
     * Collective over {@code comm}; a refusal (no free slots, a bad request) or children that
     * never connect fail it on every rank.
     */
    static Intercomm spawn(Comm comm, List<Banyan.SpawnApp> apps, List<String> hosts, int root) {
        comm.checkOpen();
        Engine engine = comm.engine;
        Banyan job = engine.job;
        String answer = null;
        if (comm.rank() == root) {
            if (job == null) {
                answer = "error this process is not a rank of a Banyan job";
            } else if (apps == null || apps.isEmpty() || apps.stream().anyMatch(a -> a == null || a.executable() == null
                    || a.executable().isBlank())) {
                answer = "error no program to spawn";
            } else {
                String service = "banyan-comm-spawn." + job.jobId() + "." + engine.rank + "." + engine.spawns.getAndIncrement()
                        + "." + HexFormat.of().formatHex(RANDOM.generateSeed(8));
                List<Banyan.SpawnApp> told = new ArrayList<>();
                int count = 0;
                for (Banyan.SpawnApp a : apps) {
                    Map<String, String> env = new HashMap<>(a.env());
                    env.put(PARENT_VARIABLE, service);
                    told.add(new Banyan.SpawnApp(a.executable(), a.args(), a.count(), env, a.wdir()));
                    count += Math.max(0, a.count());
                }
                try {
                    job.spawn(told, hosts == null ? List.of() : hosts);
                    answer = "ok " + count + " " + service;
                } catch (BanyanException | IllegalArgumentException e) {
                    answer = "error " + reason(e);
                }
            }
        }
        answer = bcastText(comm, answer, root);
        if (answer.startsWith("error ")) {
            throw new CommException("spawn: " + answer.substring(6));
        }
        String[] parts = answer.split(" ", 3);
        return connect(comm, root, job, parts[2], true, Integer.parseInt(parts[1]));
    }

    /** A spawned job's world meets its parents: the intercommunicator {@link Comm#parent} gives. */
    static Intercomm toParents(Comm world, Banyan job, String service) {
        return connect(world, 0, job, service, false, world.size());
    }

    /**
     * Builds the joint world of both groups and the intercommunicator over it; collective over
     * {@code group}, whose rank {@code root} speaks for it.
     */
    private static Intercomm connect(Comm group, int root, Banyan job, String service, boolean parents, int children) {
        Joint endpoints = new Joint(group, root, job, service, parents, timeout());
        endpoints.exchange(); // hosts and the secret first: the transports need both as they are built
        int others = endpoints.cards.size() - group.size();
        int parentsSize = parents ? group.size() : others;
        int jointRank = parents ? group.rank() : parentsSize + group.rank();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("BANYAN_MONITOR"); // the program's world writes the profile; this one would overwrite it
        env.remove("BANYAN_COMM_TOPOLOGY");
        Comm joint = World.create(jointRank, parentsSize + (parents ? children : group.size()), endpoints, env);
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

    private static int timeout() {
        String text = System.getenv(TIMEOUT_VARIABLE);
        try {
            return text == null || text.isBlank() ? DEFAULT_TIMEOUT : Math.max(1, Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return DEFAULT_TIMEOUT;
        }
    }

    private static String reason(RuntimeException e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("banyan-spawn failed: ") ? m.substring("banyan-spawn failed: ".length()) : m;
    }

    /** The joint world's endpoints: each exchange goes through the group, its root and the name service. */
    private static final class Joint implements Endpoints {
        private final Comm group;
        private final int root;
        private final Banyan job;
        private final String service;
        private final boolean parents;
        private final int timeoutSeconds;
        private final Map<String, String> card = new LinkedHashMap<>();
        final List<Map<String, String>> cards = new ArrayList<>();
        private byte[] secret;
        private int seq;

        Joint(Comm group, int root, Banyan job, String service, boolean parents, int timeoutSeconds) {
            this.group = group;
            this.root = root;
            this.job = job;
            this.service = service;
            this.parents = parents;
            this.timeoutSeconds = timeoutSeconds;
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
                throw new CommException((parents ? "spawn" : "connecting to the parents") + ": " + both.substring(6));
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
            } catch (BanyanException e) {
                String why = String.valueOf(e.getMessage());
                if (why.endsWith("timeout")) {
                    return "error the " + (parents ? "spawned job" : "parent job") + " did not connect within "
                            + timeoutSeconds + " s (" + why + ")";
                }
                return "error " + why;
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
            String first = job.lookupName(name + "#0", Duration.ofSeconds(timeoutSeconds));
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
        int max = 0;
        for (int l : lengths) {
            max = Math.max(max, l);
        }
        byte[] all = new byte[max * comm.size()];
        comm.allgather(java.util.Arrays.copyOf(bytes, max), all);
        List<String> out = new ArrayList<>(comm.size());
        for (int r = 0; r < comm.size(); r++) {
            out.add(new String(all, r * max, lengths[r], StandardCharsets.UTF_8));
        }
        return out;
    }
}
