package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.rm.AllocationPolicy;

/**
 * A DVM inside a Slurm job giving hosts back ({@code banyan dvm start --elastic}). Every period
 * it reads, off the head's loop, what waits in Slurm ({@code squeue}) and which nodes are idle
 * ({@code sinfo}); in the loop {@link AllocationPolicy} says how many hosts to give back; the
 * head releases those daemons, and once the last of them is gone the job shrinks with
 * {@code scontrol update JobId=J NodeList=<the hosts kept>} (after their job steps ended), and
 * Slurm may start the waiting job on them. One shrink at a time.
 */
final class SlurmShrink {
    private final String jobId;
    private final DvmHosts hosts;
    private final Path workDir;
    private final Consumer<String> say;
    private final boolean stepPerDaemon;
    private final Topology spawn;
    private final Topology routing;
    private final AllocationPolicy policy = new AllocationPolicy(1);
    private final Set<Integer> leaving = new LinkedHashSet<>();
    private final Set<Integer> released = new HashSet<>();
    /** From a decision to give hosts back until Slurm has them: one shrink at a time. */
    private final java.util.concurrent.atomic.AtomicBoolean shrinking = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param workDir where scontrol may write the resize scripts it writes into its working
     *                directory (removed after each shrink)
     * @param stepPerDaemon whether each daemon is a job step of its own (not one step of them all,
     *                      --static-ports), whose end a shrink waits for
     */
    SlurmShrink(String jobId, DvmHosts hosts, TopologySpec spawn, TopologySpec routing, Path workDir, Consumer<String> say,
                boolean stepPerDaemon) {
        this.spawn = spawn.over(hosts.size() + 1);
        this.routing = routing.over(hosts.size() + 1);
        this.jobId = jobId;
        this.hosts = hosts;
        this.workDir = workDir;
        this.say = say;
        this.stepPerDaemon = stepPerDaemon;
    }

    /** Reads Slurm's queue and idle nodes on a thread of its own; hands what it saw to {@code seen}. */
    void probe(Consumer<AllocationPolicy.Outside> seen) {
        Thread.ofVirtual().name("slurm-probe").start(() -> {
            try {
                String pending = run(List.of("squeue", "-h", "-t", "PENDING", "-o", "%i %D %Q %r"));
                String idle = run(List.of("sinfo", "-h", "-N", "-t", "idle", "-o", "%N"));
                seen.accept(outside(pending, idle, jobId));
            } catch (IOException e) {
                say.accept("cannot read Slurm's queue: " + e.getMessage());
                seen.accept(AllocationPolicy.Outside.QUIET);
            }
        });
    }

    /**
     * What Slurm shows: the first job waiting for resources or priority (highest priority, then
     * lowest id; not this DVM's own), and the distinct idle nodes.
     *
     * @param squeue lines of {@code squeue -h -t PENDING -o "%i %D %Q %r"}
     * @param sinfo  lines of {@code sinfo -h -N -t idle -o %N}
     */
    static AllocationPolicy.Outside outside(String squeue, String sinfo, String ownJob) {
        long bestPriority = -1;
        long bestId = Long.MAX_VALUE;
        int nodes = 0;
        for (String line : squeue.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 4 || f[0].equals(ownJob) || !(f[3].equals("Resources") || f[3].equals("Priority"))) {
                continue;
            }
            try {
                long id = Long.parseLong(f[0].replaceAll("[^0-9].*", ""));
                long priority = Long.parseLong(f[2]);
                if (priority > bestPriority || (priority == bestPriority && id < bestId)) {
                    bestPriority = priority;
                    bestId = id;
                    nodes = Integer.parseInt(f[1]);
                }
            } catch (NumberFormatException e) {
                // not a job line
            }
        }
        Set<String> idle = new HashSet<>();
        for (String line : sinfo.split("\n")) {
            if (!line.isBlank()) {
                idle.add(line.strip());
            }
        }
        return new AllocationPolicy.Outside(bestPriority >= 0, nodes, idle.size());
    }

    /**
     * In the head's loop, with what Slurm showed: the hosts to give back now, each free
     * ({@code free} by host index) and with nothing still serving below it in the spawn tree
     * or the routing tree (a daemon that leaves takes its subtree with it, and routes through
     * it break); the last hosts of the list first; none while a shrink is under way.
     */
    List<Integer> decide(AllocationPolicy.Outside outside, IntPredicate free, boolean anyQueued) {
        if (shrinking.get()) {
            return List.of();
        }
        List<Integer> releasable = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        for (int i = hosts.size() - 1; i > 0; i--) {
            if (hosts.serves(i) && free.test(i) && nothingServesBelow(spawn, i, taken) && nothingServesBelow(routing, i, taken)) {
                releasable.add(i);
                taken.add(i);
            }
        }
        int n = policy.release(new AllocationPolicy.Inside(hosts.inService(), releasable.size(), anyQueued), outside);
        // a prefix of this order holds every chosen host's subtree: children come before their parents
        List<Integer> out = List.copyOf(releasable.subList(0, n));
        if (!out.isEmpty()) {
            leaving.addAll(out);
            shrinking.set(true);
        }
        return out;
    }

    private boolean nothingServesBelow(Topology tree, int host, Set<Integer> taken) {
        int top = Topology.vertexOfDaemon(host);
        return !tree.anyInSubtree(top, v -> {
            int d = Topology.daemonOfVertex(v);
            return v != top && hosts.serves(d) && !taken.contains(d);
        });
    }

    /** Released daemon {@code d} is gone; the last of a shrink's has Slurm shrink the job. */
    void gone(int d) {
        released.add(d);
        if (leaving.remove(d) && leaving.isEmpty()) {
            List<String> keep = new ArrayList<>();
            for (int i = 0; i < hosts.size(); i++) {
                if (!released.contains(i)) {
                    keep.add(hosts.get(i).name());
                }
            }
            List<String> gone = new ArrayList<>();
            for (int i : released) {
                gone.add(hosts.get(i).name());
            }
            Thread.ofVirtual().name("slurm-shrink").start(() -> shrinkTo(keep, gone));
        }
    }

    /** How long a shrink waits for the job steps of the leaving daemons to end. */
    private static final long STEP_END_MILLIS = 10_000;

    private void shrinkTo(List<String> keep, List<String> gone) {
        try {
            if (stepPerDaemon) {
                awaitStepsOff(gone);
            }
            run(List.of("scontrol", "update", "JobId=" + jobId, "NodeList=" + String.join(",", keep)));
            say.accept("Slurm job " + jobId + " shrunk to " + String.join(",", keep));
        } catch (IOException e) {
            say.accept("cannot shrink Slurm job " + jobId + ": " + e.getMessage());
        } finally {
            for (String suffix : List.of(".sh", ".csh")) {
                try {
                    Files.deleteIfExists(workDir.resolve("slurm_job_" + jobId + "_resize" + suffix));
                } catch (IOException ignored) {
                    // best effort: a leftover script is harmless
                }
            }
            shrinking.set(false);
        }
    }

    /**
     * Waits until no step of the job runs on {@code gone} (a daemon's step ends just after its
     * link closes), or at most {@link #STEP_END_MILLIS}.
     */
    private void awaitStepsOff(List<String> gone) throws IOException {
        long deadline = System.nanoTime() + STEP_END_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            boolean busy = false;
            for (String line : run(List.of("squeue", "-h", "-s", "-j", jobId, "-o", "%N")).split("\n")) {
                if (!line.isBlank() && !java.util.Collections.disjoint(
                        org.banyan.runtime.launch.SlurmHostlist.expand(line.strip()), gone)) {
                    busy = true;
                }
            }
            if (!busy) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Runs a Slurm command in {@link #workDir}; its output, or an IOException with its error. */
    private String run(List<String> command) throws IOException {
        Path output = Files.createTempFile("banyan-slurm", ".out");
        try {
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException(command.getFirst() + " did not answer within 30 s");
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            String out = Files.readString(output, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(command.getFirst() + " failed (status " + p.exitValue() + "): " + out.strip());
            }
            return out;
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
