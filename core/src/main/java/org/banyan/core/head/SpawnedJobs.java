package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.job.JobDescription;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * MPI_Comm_spawn at the head, and the families of jobs it makes. A run places a spawned job
 * itself ({@link SpawnPlacement}); a DVM asks its scheduler ({@link HeadAction.SpawnRequested})
 * and is answered later. Either way the new job starts down the tree like any other and the
 * spawner's daemon hears its id and namespace (or why not).
 *
 * <p>A job and the jobs spawned from it, transitively, are one family: it ends with its last
 * job, and its first failure ends the others and is the family's status. A run is one family;
 * a DVM's client waits for its job's.
 */
final class SpawnedJobs {
    /** What the spawns need of the head. */
    interface Host {
        /** The job goes down every adopted subtree. */
        void start(JobDescription job, HeadSettings settings);

        void emit(HeadAction action);

        void route(OverlayMessage.Routed m);
    }

    /**
     * A job ended: its family's root, whether it was spawned, the family's jobs to end now (its
     * first failure), and the family's status once it has no job left (null while it goes on).
     */
    record Ended(int root, boolean spawned, List<Integer> toFail, Integer familyStatus) {}

    private final Host host;
    /** The head's running jobs, by id (read here, kept by the head). */
    private final Map<Integer, JobControl> jobs;
    /** The run's own job, or null for a DVM. */
    private final JobDescription runJob;
    private final int daemons;
    private final HeadSettings settings;
    /** The next job id a run gives (a DVM's scheduler numbers its own). */
    private int next;
    /** The family's first job, by spawned job still running. */
    private final Map<Integer, Integer> rootOf = new HashMap<>();
    private final Map<Integer, Integer> firstFailure = new HashMap<>();

    SpawnedJobs(Host host, Map<Integer, JobControl> jobs, JobDescription runJob, int daemons, HeadSettings settings,
                int firstId) {
        this.jobs = jobs;
        this.runJob = runJob;
        this.daemons = daemons;
        this.host = host;
        this.settings = settings;
        this.next = firstId;
    }

    /** A rank's spawn request reached the head. */
    void request(OverlayMessage.SpawnRequest s) {
        JobControl parent = jobs.get(s.jobId());
        if (parent == null || parent.terminating()) {
            answered(s, null, null, "the spawning job is ending");
            return;
        }
        JobDescription run = runJob;
        if (run == null) {
            host.emit(new HeadAction.SpawnRequested(parent.job(), s));
            return;
        }
        int[] inUse = new int[daemons];
        for (JobControl j : jobs.values()) {
            for (int n = 0; n < inUse.length; n++) {
                inUse[n] += j.map().ranksOn(n);
            }
        }
        try {
            JobDescription child = SpawnPlacement.child(run, parent.job(), next, s.apps(), inUse, s.hosts());
            next++;
            answered(s, child, settings, null);
        } catch (IllegalArgumentException e) {
            answered(s, null, null, e.getMessage());
        }
    }

    /** The new job starts and the spawner hears its namespace; or the spawner hears the refusal. */
    void answered(OverlayMessage.SpawnRequest s, JobDescription child, HeadSettings jobSettings, String refusal) {
        boolean dvm = runJob == null;
        if (refusal == null && jobs.get(s.jobId()) == null) {
            refusal = "the spawning job is ending";
            if (dvm) {
                host.emit(new HeadAction.JobEnded(child.jobId(), HeadSettings.DAEMON_LOST_STATUS)); // the DVM frees its slots
            }
        }
        if (refusal != null) {
            JobControl parent = jobs.get(s.jobId());
            HeadAction report = new HeadAction.Report((parent == null ? "banyan run" : parent.command()) + ": cannot spawn for job "
                    + s.jobId() + ": " + refusal);
            host.emit(dvm ? new HeadAction.ForJob(s.jobId(), report) : report);
            host.route(reply(s, false, refusal));
            return;
        }
        rootOf.put(child.jobId(), rootOf.getOrDefault(s.jobId(), s.jobId()));
        host.emit(new HeadAction.Milestone("job " + child.jobId() + " spawned by job " + s.jobId() + ": " + child.size()
                + " rank(s)"));
        host.start(child, jobSettings);
        host.route(reply(s, true, child.jobId() + " " + child.pmixNamespace()));
    }

    /** Job {@code jobId} ended with {@code status}; {@code running} are the jobs still running. */
    Ended ended(int jobId, int status, Set<Integer> running) {
        Integer spawnedFrom = rootOf.remove(jobId);
        int root = spawnedFrom != null ? spawnedFrom : jobId;
        List<Integer> toFail = new ArrayList<>();
        if (status != 0 && !firstFailure.containsKey(root)) {
            firstFailure.put(root, status);
            for (int j : running) {
                if (j == root || Integer.valueOf(root).equals(rootOf.get(j))) {
                    toFail.add(j);
                }
            }
        }
        if (running.contains(root) || rootOf.containsValue(root)) {
            return new Ended(root, spawnedFrom != null, toFail, null);
        }
        Integer first = firstFailure.remove(root);
        return new Ended(root, spawnedFrom != null, toFail, first != null ? first : status);
    }

    private static OverlayMessage.NameReply reply(OverlayMessage.SpawnRequest s, boolean ok, String text) {
        return new OverlayMessage.NameReply(s.jobId(), Topology.daemonOfVertex(0), s.from(), s.request(),
                OverlayMessage.NameRequest.SPAWN, ok, text);
    }
}
