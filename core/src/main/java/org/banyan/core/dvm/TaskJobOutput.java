package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.pilot.TaskRequest;

/**
 * The output files of the DVM's MPI tasks, as the core decides about them (the driver writes
 * them, off its loop): opened when the task's job starts, closed when it ends, and the task
 * final only once the driver says they are closed, so that a user who reads them once it is
 * DONE reads all of it; files still open {@link #CLOSE_MILLIS} after the job's end fail the
 * task. A task whose files fall behind has its job stopped until they catch up, as a full pipe
 * stops a program that writes into it. A DVM that stops ends its tasks at once.
 */
final class TaskJobOutput {
    /**
     * How long after its job's end an MPI task waits for its output files to close (a file system
     * that hangs, or a FIFO nobody reads given as {@code stdout}, holds them).
     */
    static final long CLOSE_MILLIS = 30_000;

    /** How a task's job ended, kept while its files close. */
    record JobEnd(int job, int status, String note) {}

    private final Consumer<DvmAction> out;
    /** MPI tasks whose job ended and whose files are still closing. */
    private final Map<Integer, JobEnd> closing = new HashMap<>();
    /** Jobs stopped (SIGSTOP) while their task's files fall behind. */
    private final PausedJobs stopped = new PausedJobs();
    /** Tasks whose files fell behind, said once in the log (a task faster than its file system falls behind again and again). */
    private final Set<Integer> toldBehind = new HashSet<>();
    /** What a failed MPI task's detail says, gathered while its job runs, by task. */
    private final Map<Integer, TaskJobFailureWords> words = new HashMap<>();
    /** The DVM is stopping: it will not hear files close. */
    private boolean dvmStopping;

    TaskJobOutput(Consumer<DvmAction> out) {
        this.out = out;
    }

    void open(int task, TaskRequest r) {
        out.accept(new DvmAction.OpenTaskOutput(task, r.sandbox(), r.stdout(), r.stderr()));
    }

    void write(int task, int stream, byte[] data) {
        if (stream == 2) {
            words.computeIfAbsent(task, k -> new TaskJobFailureWords()).stderr(data);
        }
        out.accept(new DvmAction.TaskOutput(task, stream == 2 ? 2 : 1, data));
    }

    /** What the head said of task {@code task}'s job (a rank that failed or could not start). */
    void report(int task, String line) {
        words.computeIfAbsent(task, k -> new TaskJobFailureWords()).report(line);
    }

    /**
     * Why task {@code task}'s job ended with {@code status}: {@code note} when it says, else, for
     * a failure, the head's first report and the last lines of its stderr, as a task of one
     * process gets its stderr's tail (an MPI task whose rank could not start said nothing).
     */
    String why(int task, int status, String note) {
        TaskJobFailureWords w = words.remove(task);
        return !note.isEmpty() || status == 0 || w == null ? note : w.detail();
    }

    /** Task {@code task} leaves job {@code job} before its end (restarted, or failed with a lost node). */
    void close(int task) {
        toldBehind.remove(task);
        words.remove(task);
        out.accept(new DvmAction.CloseTaskOutput(task));
    }

    /** Job {@code job} of task {@code task} ended: true when the task ends now, false when it waits for its files. */
    boolean jobEnded(int task, int job, int status, String note) {
        stopped.forget(job);
        close(task);
        if (dvmStopping) {
            return true;
        }
        closing.put(task, new JobEnd(job, status, note));
        out.accept(new DvmAction.Arm(new DvmEvent.TaskOutputLate(task, job), CLOSE_MILLIS));
        return false;
    }

    /** Task {@code task}'s files are closed: how its job ended; null when it ended otherwise already. */
    JobEnd closed(int task) {
        return closing.remove(task);
    }

    /**
     * Job {@code job}'s files were not closed in time: how task {@code task} ends, failed with
     * why; null when they were, or the task has a job since (restarted elsewhere).
     */
    JobEnd late(int task, int job) {
        JobEnd end = closing.get(task);
        if (end == null || end.job() != job) {
            return null;
        }
        closing.remove(task);
        out.accept(new DvmAction.AbandonTaskOutput(task));
        String why = "its output files were not written " + CLOSE_MILLIS / 1000 + " s after it ended with status "
                + end.status() + " (a file system that does not answer, or a FIFO nobody reads)";
        // a FAILED state needs a status other than 0; the words keep the real one
        return new JobEnd(job, end.status() == 0 ? 1 : end.status(), end.note().isEmpty() ? why : end.note() + "; " + why);
    }

    /** Task {@code task}'s files fell {@code behind}, or caught up: its job {@code job} (null: none now) waits meanwhile. */
    List<HeadEvent> backlog(int task, Integer job, boolean behind) {
        if (job == null) {
            return List.of();
        }
        List<HeadEvent> signals = new ArrayList<>(1);
        if (!behind) {
            stopped.resume(job, signals);
        } else if (stopped.stop(job, signals) && toldBehind.add(task)) {
            out.accept(new DvmAction.Log("task " + task + " writes faster than its output files take it: its job " + job
                    + " is stopped until they catch up, each time"));
        }
        return signals;
    }

    /** The DVM ends job {@code job}: stopped for its files, it is continued after, to see its SIGTERM in its grace. */
    void cancel(int job, String why, List<HeadEvent> events) {
        stopped.end(job, new HeadEvent.CancelJob(job, why), events);
    }

    /** The DVM tells its clients it stops: MPI tasks that end from now on end at once. */
    void dvmStopping() {
        dvmStopping = true;
    }
}
