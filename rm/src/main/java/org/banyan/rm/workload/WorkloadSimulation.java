package org.banyan.rm.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.banyan.rm.JobRequest;
import org.banyan.rm.MalleableScheduler;

/**
 * A workload run under a virtual clock by the real resource manager ({@link MalleableScheduler}):
 * jobs arrive, start when the scheduler says, run their iterations at their current size, check
 * in at each iteration boundary (no sooner than {@code inhibitSeconds} after their last check,
 * DMR's checking inhibitor), pay for each resize, and end. Fixed and flexible differ only in
 * the scheduler's policy. Deterministic: the same workload gives the same result.
 */
public final class WorkloadSimulation {
    /** What happened to one job. */
    public record JobOutcome(WorkloadJob job, double start, double end, int resizes, int finalSize) {
        public double waitSeconds() {
            return start - job.submitSeconds();
        }

        public double execSeconds() {
            return end - start;
        }

        public double completionSeconds() {
            return end - job.submitSeconds();
        }
    }

    /** A point of the timelines: from {@code time} on, so many nodes allocated, jobs running and completed. */
    public record Sample(double time, int allocatedNodes, int runningJobs, int completedJobs) {}

    /**
     * A policy's result.
     *
     * @param completionSeconds the workload's completion: its last end after its first arrival
     * @param utilisation       allocated node-seconds over the cluster's, until completion
     */
    public record Result(boolean flexible, int nodes, List<JobOutcome> jobs, List<Sample> timeline, double completionSeconds,
                         double utilisation, long checks, long resizes) {
        public double meanWait() {
            return jobs.stream().mapToDouble(JobOutcome::waitSeconds).average().orElse(0);
        }

        public double meanExec() {
            return jobs.stream().mapToDouble(JobOutcome::execSeconds).average().orElse(0);
        }

        public double meanCompletion() {
            return jobs.stream().mapToDouble(JobOutcome::completionSeconds).average().orElse(0);
        }
    }

    private enum Kind { ARRIVE, ITERATION, SHRUNK }

    private record Event(double time, long seq, Kind kind, int job) {}

    private static final class Live {
        final WorkloadJob job;
        int size;
        int done;
        double start;
        double lastCheck = Double.NEGATIVE_INFINITY;
        int resizes;
        /** The scheduler's version when this job's check last answered NONE (-1: not since). */
        long noneAt = -1;

        Live(WorkloadJob job) {
            this.job = job;
        }
    }

    private final List<WorkloadJob> workload;
    private final int nodes;
    private final boolean flexible;
    private final double inhibitSeconds;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.time != b.time ? Double.compare(a.time, b.time)
            : Long.compare(a.seq, b.seq));
    private long seq;
    private final Live[] live;
    private final MalleableScheduler scheduler;
    private final List<Sample> timeline = new ArrayList<>();
    private final List<JobOutcome> outcomes = new ArrayList<>();
    private double allocatedArea;
    private double lastChange;
    private int running;
    private long checks;
    private long resizes;
    private final boolean remember;
    /** Checks put to the scheduler (the others were remembered NONEs). */
    private long asked;

    public WorkloadSimulation(List<WorkloadJob> workload, int nodes, boolean flexible, double inhibitSeconds) {
        this(workload, nodes, flexible, inhibitSeconds, true);
    }

    /**
     * @param remember whether a check's NONE is taken as given while the scheduler has not
     *                 changed ({@link MalleableScheduler#version}); false asks at every check (the
     *                 reference the tests compare with)
     */
    WorkloadSimulation(List<WorkloadJob> workload, int nodes, boolean flexible, double inhibitSeconds, boolean remember) {
        this.remember = remember;
        this.workload = List.copyOf(workload);
        this.nodes = nodes;
        this.flexible = flexible;
        this.inhibitSeconds = inhibitSeconds;
        this.scheduler = new MalleableScheduler(nodes, flexible);
        this.live = new Live[workload.size() + 1];
        for (WorkloadJob j : workload) {
            if (j.id() < 1 || j.id() > workload.size() || live[j.id()] != null) {
                throw new IllegalArgumentException("workload jobs are numbered 1.." + workload.size() + " once each");
            }
            live[j.id()] = new Live(j);
        }
    }

    public Result run() {
        for (WorkloadJob j : workload) {
            post(j.submitSeconds(), Kind.ARRIVE, j.id());
        }
        double first = workload.stream().mapToDouble(WorkloadJob::submitSeconds).min().orElse(0);
        lastChange = first;
        sample(first);
        double now = first;
        while (!events.isEmpty()) {
            Event e = events.poll();
            now = e.time;
            Live l = live[e.job];
            switch (e.kind) {
                case ARRIVE -> started(scheduler.submit(request(l.job), now), now);
                case ITERATION -> iteration(l, now);
                case SHRUNK -> started(scheduler.shrunk(l.job.id(), now), now);
            }
            sample(now);
        }
        double completion = now - first;
        double utilisation = completion > 0 ? allocatedArea / (nodes * completion) : 0;
        outcomes.sort((a, b) -> Integer.compare(a.job().id(), b.job().id()));
        return new Result(flexible, nodes, List.copyOf(outcomes), List.copyOf(timeline), completion, utilisation, checks, resizes);
    }

    /** Checks this run put to the scheduler itself. */
    long asked() {
        return asked;
    }

    private static JobRequest request(WorkloadJob j) {
        AppModel a = j.app();
        int factor = JobRequest.reachable(a.minNodes(), a.maxNodes(), 2) && (a.preferredNodes() == 0
                || JobRequest.reachable(a.minNodes(), a.preferredNodes(), 2)) ? 2 : 1;
        return new JobRequest(j.id(), a.minNodes(), a.maxNodes(), a.preferredNodes(), factor, j.estimateSeconds());
    }

    private void started(List<MalleableScheduler.Start> starts, double now) {
        for (MalleableScheduler.Start s : starts) {
            Live l = live[s.jobId()];
            l.size = s.nodes();
            // a job's start, as the real run measures it, is its first iteration's: its ranks started
            l.start = now + l.job.app().startSeconds();
            l.lastCheck = l.start;
            running++;
            post(l.start + l.job.app().iterationSeconds(l.size), Kind.ITERATION, l.job.id());
        }
    }

    private void iteration(Live l, double now) {
        l.done++;
        AppModel a = l.job.app();
        if (l.done == a.iterations()) {
            running--;
            outcomes.add(new JobOutcome(l.job, l.start, now, l.resizes, l.size));
            started(scheduler.ended(l.job.id(), now), now);
            return;
        }
        double next = now;
        if (now - l.lastCheck >= Math.max(inhibitSeconds, a.checkPeriodSeconds())) {
            l.lastCheck = now;
            checks++;
            // a job checking at every iteration of a long run asked the same question of an
            // unchanged scheduler billions of times (hours for a set-up of 2·10^9 checks)
            MalleableScheduler.Decision d;
            if (remember && l.noneAt == scheduler.version()) {
                d = new MalleableScheduler.Decision(MalleableScheduler.Kind.NONE, l.size);
            } else {
                d = scheduler.check(l.job.id(), now);
                asked++;
                l.noneAt = d.kind() == MalleableScheduler.Kind.NONE ? scheduler.version() : -1;
            }
            if (d.kind() != MalleableScheduler.Kind.NONE) {
                double cost = a.resizeSeconds(l.size, d.newSize());
                l.resizes++;
                resizes++;
                l.size = d.newSize();
                next += cost;
                if (d.kind() == MalleableScheduler.Kind.SHRINK) {
                    post(now + cost, Kind.SHRUNK, l.job.id());
                }
            }
        }
        post(next + a.iterationSeconds(l.size), Kind.ITERATION, l.job.id());
    }

    private void post(double time, Kind kind, int job) {
        events.add(new Event(time, seq++, kind, job));
    }

    /** Adds the area since the last change and a sample when something changed. */
    private void sample(double now) {
        Sample last = timeline.isEmpty() ? null : timeline.getLast();
        int allocated = scheduler.allocated();
        allocatedArea += (last == null ? 0 : last.allocatedNodes()) * (now - lastChange);
        lastChange = now;
        if (last == null || last.allocatedNodes() != allocated || last.runningJobs() != running
                || last.completedJobs() != outcomes.size()) {
            if (last != null && last.time() == now) {
                timeline.removeLast();
            }
            timeline.add(new Sample(now, allocated, running, outcomes.size()));
        }
    }
}
