package org.banyan.comm;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.banyan.client.Banyan;

/**
 * MPI_Comm_spawn and MPI_Comm_get_parent. The spawning group's root asks the run to start the
 * children as a new job of it (PMI-2's {@code banyan-spawn}), giving them, in
 * {@code BANYAN_COMM_PARENT}, the name under which the two groups meet; both groups then build
 * their {@link JointWorld}, parents first.
 */
final class CommSpawn {
    /** Where a spawned job finds the name its parents wait under. */
    static final String PARENT_VARIABLE = "BANYAN_COMM_PARENT";
    /** How long a group waits for the other at each exchange: seconds, default {@link #DEFAULT_TIMEOUT}. */
    static final String TIMEOUT_VARIABLE = "BANYAN_COMM_SPAWN_TIMEOUT";
    static final int DEFAULT_TIMEOUT = 120;
    private static final SecureRandom RANDOM = new SecureRandom();

    private CommSpawn() {}

    /**
     * MPI_Comm_spawn(_multiple): the processes {@code apps} describe, on {@code hosts} (none:
     * where the run places them), both read at {@code root} only; an intercommunicator to them.
     * Collective over {@code comm}; a refusal (no free slots, a bad request) or children that
     * never connect fail it on every rank.
     */
    static Intercomm spawn(Comm comm, List<Banyan.SpawnApp> apps, List<String> hosts, int root) {
        return spawn(comm, root, () -> {
            if (apps == null || apps.isEmpty() || apps.stream().anyMatch(a -> a == null || a.executable() == null
                    || a.executable().isBlank())) {
                throw new IllegalArgumentException("no program to spawn");
            }
            return new Plan(apps, hosts == null ? List.of() : hosts, null);
        });
    }

    /** MPI_Comm_spawn with MPI_Info ({@link SpawnInfo}): as above, "soft" counts tried largest first. */
    static Intercomm spawn(Comm comm, String executable, List<String> args, int maxprocs, Map<String, String> info, int root) {
        return spawn(comm, root, () -> {
            if (executable == null || executable.isBlank()) {
                throw new IllegalArgumentException("no program to spawn");
            }
            SpawnInfo s = SpawnInfo.parse(executable, args, maxprocs, info);
            return new Plan(List.of(s.app()), s.hosts(), s.counts().length > 1 ? s.counts() : null);
        });
    }

    /** What the root asks for: the applications, where, and (soft) the counts of its one application to try in turn. */
    private record Plan(List<Banyan.SpawnApp> apps, List<String> hosts, int[] counts) {}

    private static Intercomm spawn(Comm comm, int root, Supplier<Plan> planAtRoot) {
        comm.checkOpen();
        int wait = timeout("spawn");
        Engine engine = comm.engine;
        Banyan job = engine.job;
        String answer = null;
        if (comm.rank() == root) {
            if (job == null) {
                answer = "error this process is not a rank of a Banyan job";
            } else {
                try {
                    answer = ask(job, engine, planAtRoot.get());
                } catch (RuntimeException e) { // any: the group waits for the root's word
                    answer = "error " + reason(e);
                }
            }
        }
        answer = JointWorld.bcastText(comm, answer, root);
        if (answer.startsWith("error ")) {
            throw new CommException("spawn: " + answer.substring(6));
        }
        String[] parts = answer.split(" ", 3);
        return JointWorld.build(comm, root, job, parts[2], true, new JointWorld.Side("spawn", "the spawned job did not connect",
                wait));
    }

    /** At the root: the run asked; "ok COUNT SERVICE", or the refusal thrown (of the smallest soft count). */
    private static String ask(Banyan job, Engine engine, Plan plan) {
        String service = "banyan-comm-spawn." + job.jobId() + "." + engine.rank + "." + engine.spawns.getAndIncrement()
                + "." + HexFormat.of().formatHex(RANDOM.generateSeed(8));
        int[] counts = plan.counts() == null ? new int[] {-1} : plan.counts();
        RuntimeException refused = null;
        for (int c : counts) { // a refused spawn started nothing: the next count may use the same name
            List<Banyan.SpawnApp> told = new ArrayList<>();
            int count = 0;
            for (Banyan.SpawnApp a : plan.apps()) {
                Map<String, String> env = new HashMap<>(a.env());
                env.put(PARENT_VARIABLE, service);
                int n = c < 0 ? a.count() : c;
                told.add(new Banyan.SpawnApp(a.executable(), a.args(), n, env, a.wdir()));
                count += Math.max(0, n);
            }
            try {
                job.spawn(told, plan.hosts());
                return "ok " + count + " " + service;
            } catch (RuntimeException e) {
                refused = e;
            }
        }
        if (counts.length > 1) {
            throw new IllegalStateException("none of the soft counts " + java.util.Arrays.toString(counts) + " could be started: "
                    + reason(refused), refused);
        }
        throw refused;
    }

    /** A spawned job's world meets its parents: the intercommunicator {@link Comm#parent} gives. */
    static Intercomm toParents(Comm world, Banyan job, String service) {
        return JointWorld.build(world, 0, job, service, false, new JointWorld.Side("connecting to the parents",
                "the parent job did not connect", timeout("connecting to the parents")));
    }

    private static int timeout(String what) {
        return JointWorld.seconds(what, TIMEOUT_VARIABLE, DEFAULT_TIMEOUT);
    }

    private static String reason(RuntimeException e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("banyan-spawn failed: ") ? m.substring("banyan-spawn failed: ".length()) : m;
    }

}
