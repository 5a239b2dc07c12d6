package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.banyan.core.dvm.DvmAction;
import org.banyan.core.dvm.DvmEvent;
import org.banyan.rm.AllocationPolicy;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.launch.ProcessStarter;
import org.banyan.runtime.launch.SlurmHostlist;

/**
 * Slurm's side of an elastic DVM ({@code banyan dvm start --elastic}): the commands, run off
 * the head's loop, whose results go back to the DVM's core, which decides ({@code ElasticPolicy}
 * in {@code core/dvm}). Every period it reads what waits in Slurm ({@code squeue}) and which nodes
 * are idle ({@code sinfo}); asked to grow, it takes another allocation ({@code salloc --no-shell
 * --immediate}, the hosts the DVM gave back first, by name), whose hosts' daemons the head then
 * starts in it ({@code srun --jobid}); asked to shrink, it has each Slurm job holding released
 * hosts let them go ({@code scontrol update JobId=J NodeList=<the hosts kept>}, after their job
 * steps ended) or cancels it when it keeps none. As the DVM stops, the allocations it took after
 * its own are cancelled.
 */
final class ElasticSlurm {
    private static final Pattern GRANTED = Pattern.compile("Granted job allocation (\\d+)");
    /** How long a shrink waits for the job steps of the leaving daemons to end. */
    private static final long STEP_END_MILLIS = 10_000;

    private final String jobId;
    private final Path workDir;
    private final Consumer<String> say;
    private final Consumer<DvmEvent> post;
    private final LaunchAgent agent;
    /** The Slurm job of each host of a later allocation, by name (read by the starter's threads). */
    private final Map<String, String> jobOfHost = new ConcurrentHashMap<>();
    /** Set when the DVM stops: an allocation granted after that is cancelled at once. */
    private volatile boolean closed;

    /**
     * @param workDir where scontrol may write the resize scripts it writes into its working
     *                directory (removed after each shrink)
     * @param post    hands the head's loop what a command found (from any thread)
     */
    ElasticSlurm(String jobId, Path workDir, LaunchAgent agent, Consumer<String> say, Consumer<DvmEvent> post) {
        this.jobId = jobId;
        this.workDir = workDir;
        this.agent = agent;
        this.say = say;
        this.post = post;
    }

    /** Reads Slurm's queue and idle nodes on a thread of its own; posts what it saw. */
    void probe() {
        Thread.ofVirtual().name("slurm-probe").start(() -> {
            try {
                String pending = run(List.of("squeue", "-h", "-t", "PENDING", "-o", "%i %D %Q %r"));
                String idle = run(List.of("sinfo", "-h", "-N", "-t", "idle", "-o", "%N"));
                post.accept(new DvmEvent.SlurmSeen(outside(pending, idle, jobId), idleNodes(idle)));
            } catch (IOException e) {
                say.accept("cannot read Slurm's queue: " + e.getMessage());
                post.accept(new DvmEvent.SlurmSeen(AllocationPolicy.Outside.QUIET, Set.of()));
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
        return new AllocationPolicy.Outside(bestPriority >= 0, nodes, idleNodes(sinfo).size());
    }

    private static Set<String> idleNodes(String sinfo) {
        Set<String> idle = new HashSet<>();
        for (String line : sinfo.split("\n")) {
            if (!line.isBlank()) {
                idle.add(line.strip());
            }
        }
        return idle;
    }

    /** Off the loop: another allocation, as the core asked; posts what Slurm granted. */
    void grow(DvmAction.SlurmGrow g) {
        Thread.ofVirtual().name("slurm-grow").start(() -> {
            List<String> command = new ArrayList<>(List.of("salloc", "--no-shell", "--immediate=10", "-N", Integer.toString(g.n()),
                    "--mincpus=" + g.cpus(), "--exclude=" + String.join(",", g.serving()), "-J", "banyan-dvm-" + jobId));
            if (!g.preferred().isEmpty()) {
                command.add("--nodelist=" + String.join(",", g.preferred()));
            }
            String partition = System.getenv("SLURM_JOB_PARTITION");
            if (partition != null && !partition.isBlank()) {
                command.add("--partition=" + partition);
            }
            String job = null;
            try {
                // no longer than the DVM's own job: an allocation outliving a killed head ends by itself
                String left = run(List.of("squeue", "-h", "-j", jobId, "-o", "%L")).strip();
                if (left.matches("[0-9][0-9:-]*")) {
                    command.add("--time=" + left);
                }
                String out = run(command);
                Matcher m = GRANTED.matcher(out);
                if (!m.find()) {
                    throw new IOException("salloc granted nothing: " + out.strip());
                }
                job = m.group(1);
                if (closed) {
                    throw new IOException("the DVM stopped while Slurm granted job " + job);
                }
                List<String> got = SlurmHostlist.expand(run(List.of("squeue", "-h", "-j", job, "-o", "%N")).strip());
                if (got.isEmpty()) {
                    throw new IOException("squeue shows no node for job " + job);
                }
                for (String host : got) {
                    jobOfHost.put(host, job);
                }
                post.accept(new DvmEvent.SlurmGranted(job, got));
            } catch (IOException e) {
                if (job != null) {
                    try {
                        run(List.of("scancel", job));
                    } catch (IOException ignored) {
                        // it ends at its time limit, which is the DVM's own
                    }
                }
                post.accept(new DvmEvent.SlurmGrantFailed(e.getMessage()));
            }
        });
    }

    /**
     * Off the loop: each Slurm job lets the hosts the core named go, shrinking to those it keeps,
     * or is cancelled when it keeps none (never the DVM's own: its first host stays).
     */
    void shrink(DvmAction.SlurmShrink s) {
        Thread.ofVirtual().name("slurm-shrink").start(() -> {
            try {
                for (Map.Entry<String, List<String>> e : s.letGo().entrySet()) {
                    String job = e.getKey();
                    List<String> keep = s.keep().getOrDefault(job, List.of());
                    try {
                        if (agent.stepPerDaemon()) {
                            awaitStepsOff(job, e.getValue());
                        }
                        if (keep.isEmpty()) {
                            run(List.of("scancel", job));
                            say.accept("Slurm job " + job + " cancelled: it held only " + e.getValue());
                        } else {
                            run(List.of("scontrol", "update", "JobId=" + job, "NodeList=" + String.join(",", keep)));
                            say.accept("Slurm job " + job + " shrunk to " + String.join(",", keep));
                        }
                        e.getValue().forEach(jobOfHost::remove);
                    } catch (IOException ex) {
                        say.accept("cannot shrink Slurm job " + job + ": " + ex.getMessage());
                    } finally {
                        for (String suffix : List.of(".sh", ".csh")) {
                            try {
                                Files.deleteIfExists(workDir.resolve("slurm_job_" + job + "_resize" + suffix));
                            } catch (IOException ignored) {
                                // best effort: a leftover script is harmless
                            }
                        }
                    }
                }
            } finally {
                post.accept(new DvmEvent.SlurmShrunk(s.last()));
            }
        });
    }

    /**
     * The starter of the head's children: a host of a later allocation is started in it
     * ({@code srun --jobid}), the others as {@code base} starts them.
     */
    ChildStarter starter(ChildStarter base) {
        Map<String, ProcessStarter> byJob = new ConcurrentHashMap<>();
        return new ChildStarter() {
            @Override
            public void start(int childId, String host, String parentAddress, Losses losses) {
                String job = jobOfHost.get(host);
                if (job == null || job.equals(jobId)) {
                    base.start(childId, host, parentAddress, losses);
                } else {
                    byJob.computeIfAbsent(job, j -> new ProcessStarter(new LaunchAgent.Slurm(j)))
                            .start(childId, host, parentAddress, losses);
                }
            }

            @Override
            public void awaitOrKill(long deadlineNanos) {
                base.awaitOrKill(deadlineNanos);
                byJob.values().forEach(s -> s.awaitOrKill(deadlineNanos));
            }
        };
    }

    /** The DVM stops (its daemons are gone): the allocations it took after its own are cancelled. */
    void close(Set<String> laterJobs) {
        closed = true;
        for (String job : laterJobs) {
            try {
                run(List.of("scancel", job));
                say.accept("Slurm job " + job + " cancelled: the DVM took its hosts after its own job");
            } catch (IOException e) {
                say.accept("cannot cancel Slurm job " + job + ": " + e.getMessage());
            }
        }
    }

    /**
     * Waits until no step of {@code job} runs on {@code gone} (a daemon's step ends just after
     * its link closes), or at most {@link #STEP_END_MILLIS}.
     */
    private void awaitStepsOff(String job, List<String> gone) throws IOException {
        long deadline = System.nanoTime() + STEP_END_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            boolean busyThere = false;
            for (String line : run(List.of("squeue", "-h", "-s", "-j", job, "-o", "%N")).split("\n")) {
                if (!line.isBlank() && !java.util.Collections.disjoint(SlurmHostlist.expand(line.strip()), gone)) {
                    busyThere = true;
                }
            }
            if (!busyThere) {
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
            Process p = org.banyan.runtime.os.ProcessStarts.start(new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))));
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
