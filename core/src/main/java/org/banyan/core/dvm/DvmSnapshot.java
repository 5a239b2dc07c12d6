package org.banyan.core.dvm;

import java.util.List;
import org.banyan.core.wire.ClientMessage;

/**
 * The DVM's state at one moment, for its dashboard: hosts and their cores and GPUs (and, per
 * host, the jobs that hold it; the rest of its busy cores run tasks), jobs, the
 * resource manager's queue and its jobs' sizes over time, tasks (counts, rates, the slowest and
 * the failed) and the DVM's recent decisions. Immutable; built by the core on its own thread,
 * turned into JSON by the driver off it.
 */
public record DvmSnapshot(long timeMicros, List<ClientMessage.HostStatus> hosts, List<List<String>> holders,
                          List<ClientMessage.JobStatus> jobs, List<Queued> queued, Tasks tasks, List<Size> sizes,
                          List<Decision> decisions, List<Monitored> monitored) {
    /**
     * Tasks: how many wait (not started), run, and ended each way since the DVM started; starts
     * and ends per second from {@code firstSecond} (seconds since the epoch) on; the longest
     * running (longest first) and the last failures (newest last).
     */
    public record Tasks(long waiting, long running, long done, long failed, long canceled, long firstSecond, long[] startedPerSecond,
                        long[] endedPerSecond, List<Running> slowest, List<Failed> failures) {}

    /** A running task: its name and colocation tag (null when none or not known) and when it started (wall-clock µs). */
    public record Running(int taskId, String name, String tag, long sinceMicros) {}

    /** A task that failed: its name and tag, when, how, and why (the detail ends with its stderr's tail). */
    public record Failed(int taskId, String name, String tag, long timeMicros, int exitCode, String detail) {}

    /** A line of the DVM's log, as a point on its timeline. */
    public record Decision(long timeMicros, String line) {}

    /** A job waiting in the resource manager's queue, and why it waits. */
    public record Queued(ClientMessage.QueuedStatus job, String reason) {}

    /** A running job whose ranks write live traffic counters to {@code dir}/live (the driver reads them). */
    public record Monitored(int jobId, int ranks, String dir) {}

    /** A queued job's size from {@code timeMicros} on (0: it ended). */
    public record Size(long timeMicros, int queueId, int ranks) {}
}
