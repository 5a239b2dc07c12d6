package org.banyan.pilot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.banyan.runtime.dvm.DvmFiles;
import org.banyan.runtime.launch.DaemonCommand;

/**
 * A Slurm pilot's batch job: {@code sbatch} of a script whose one step is the DVM's head
 * ({@code DvmMain --until-signalled --agent slurm}) over the allocation's nodes, each with the
 * cores Slurm gave it; the head starts its daemons as job steps, writes its URI file into the
 * pilot's directory (on the shared file system), and ends on SIGTERM (scancel, the time limit)
 * or when the pilot stops it. While the job waits in the queue the pilot is PMGR_LAUNCHING.
 */
final class SlurmPilotJob {
    private static final long POLL_MILLIS = 200;
    private static final long QUEUE_CHECK_MILLIS = 2000;

    private final String uid;
    private final PilotDescription description;
    private final DvmFiles files;
    private final Path dir;
    private volatile String jobId;

    SlurmPilotJob(String uid, PilotDescription description, DvmFiles files, Path dir) {
        this.uid = uid;
        this.description = description;
        this.files = files;
        this.dir = dir;
    }

    /** Writes the script and submits it; the job id is kept for cancel. */
    void submit() throws IOException, InterruptedException {
        files.makeDirectory(); // the DVM's files are in this directory: nobody else's to write
        Files.createDirectories(dir);
        Path script = dir.resolve("pilot.sbatch");
        Files.writeString(script, script());
        // --exclusive: a pilot of N nodes holds them whole. Without it a cons_tres cluster (the
        // usual select plugin) grants one CPU per node, and the pilot had one core a node.
        List<String> cmd = new ArrayList<>(List.of("sbatch", "--parsable", "--job-name=banyan-" + uid,
                "--nodes=" + description.nodes(), "--exclusive", "--output=" + dir.resolve("pilot.out")));
        if (description.runtimeMinutes() > 0) {
            cmd.add("--time=" + (long) Math.ceil(description.runtimeMinutes()));
        }
        if (description.partition() != null) {
            cmd.add("--partition=" + description.partition());
        }
        if (description.account() != null) {
            cmd.add("--account=" + description.account());
        }
        if (description.gpusPerHost() > 0) {
            cmd.add("--gpus-per-node=" + description.gpusPerHost());
        }
        cmd.add(script.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.waitFor() != 0 || out.isEmpty()) {
            throw new IOException("sbatch refused the pilot: " + out);
        }
        jobId = out.split(";")[0]; // --parsable: JOBID[;CLUSTER]
    }

    /**
     * The batch script. Every node gets the cores Slurm counts for the batch node (allocations of
     * whole, alike nodes, as pilots ask for).
     */
    private String script() {
        StringBuilder cmd = new StringBuilder();
        for (String word : DaemonCommand.jvmForDvm("org.banyan.runtime.dvm.DvmMain")) {
            cmd.append(quote(word)).append(' ');
        }
        return """
                #!/bin/sh
                # A Banyan pilot: the DVM's head; its daemons are job steps on the allocation's nodes.
                hosts=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | sed "s/$/:${SLURM_CPUS_ON_NODE:-1}/" | paste -sd, -)
                exec %s--uri-file %s --host "$hosts" --agent slurm --gpus-per-host %d --until-signalled
                """.formatted(cmd, quote(files.uri().toString()), description.gpusPerHost());
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * Waits until the job's DVM has written its URI file; fails when the job ends first (with the
     * last line of its output) or {@code canceled} turns true.
     */
    void awaitDvm(BooleanSupplier canceled) throws IOException, InterruptedException {
        long nextQueueCheck = System.currentTimeMillis() + QUEUE_CHECK_MILLIS;
        while (!canceled.getAsBoolean()) {
            try {
                files.read();
                return;
            } catch (IOException e) {
                // not yet
            }
            if (System.currentTimeMillis() > nextQueueCheck) {
                nextQueueCheck = System.currentTimeMillis() + QUEUE_CHECK_MILLIS;
                String jobState = state();
                if (jobState.isEmpty() || List.of("FAILED", "CANCELLED", "TIMEOUT", "COMPLETED", "NODE_FAIL",
                        "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "PREEMPTED").contains(jobState)) {
                    try {
                        files.read();
                        return;
                    } catch (IOException e) {
                        throw new IOException("the pilot's Slurm job " + jobId + " ended ("
                                + (jobState.isEmpty() ? "gone from the queue" : jobState) + ") before its DVM was up: "
                                + lastLine(dir.resolve("pilot.out")));
                    }
                }
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new InterruptedException("the pilot was canceled while its Slurm job " + jobId + " waited");
    }

    /** The job's state in squeue, or "" when it is no longer there. */
    private String state() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("squeue", "-h", "-j", jobId, "-o", "%T").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return p.waitFor() == 0 ? out : "";
    }

    /** scancel, whatever state the job is in. */
    void cancel() {
        if (jobId == null) {
            return;
        }
        try {
            new ProcessBuilder("scancel", jobId).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException | InterruptedException e) {
            // the job ends at its time limit all the same
        }
    }

    private static String lastLine(Path f) {
        try {
            List<String> lines = Files.readAllLines(f);
            return lines.isEmpty() ? "(no output)" : lines.getLast();
        } catch (IOException e) {
            return "(no output)";
        }
    }
}
