package org.banyan.core.dvm;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.banyan.core.head.HeadAction;
import org.banyan.core.wire.OverlayMessage;

/**
 * The stdin file of a DVM task that runs as a job (an MPI task, or one of several ranks), as the
 * core decides about it: rank 0 reads it, as mpirun hands its own stdin to rank 0 (and as
 * RADICAL-Pilot's launch methods, which put the task's stdin before mpirun, do). The driver
 * reads the file off the loop once the job's head core says where rank 0 is
 * ({@link HeadAction.ForwardStdin}), never further ahead than the credit that core grants
 * ({@link HeadAction.StdinCredit}); each chunk comes back here ({@link DvmEvent.TaskInput}) and
 * goes down the tree as {@code banyan run}'s stdin does. Everything is keyed by job: a task
 * restarted elsewhere has a new job, and a chunk of its old one is dropped.
 */
final class TaskJobInput {
    /** A job's file: in {@code sandbox} unless absolute. */
    private record File(String sandbox, String stdin) {}

    private final Consumer<DvmAction> out;
    /** Jobs whose rank 0 reads a file, until their job ends. */
    private final Map<Integer, File> files = new HashMap<>();
    /** Where each job's stdin goes, once its head core says; the driver reads the file meanwhile. */
    private final Map<Integer, HeadAction.ForwardStdin> targets = new HashMap<>();

    TaskJobInput(Consumer<DvmAction> out) {
        this.out = out;
    }

    /** Job {@code job}'s rank 0 reads {@code stdin} (relative to {@code sandbox}). */
    void expect(int job, String sandbox, String stdin) {
        files.put(job, new File(sandbox, stdin));
    }

    /** What job {@code job}'s head core says of its stdin (its other actions are not this class's). */
    void forJob(int job, HeadAction a) {
        switch (a) {
            case HeadAction.ForwardStdin f -> {
                File file = files.get(job);
                if (file != null && targets.put(job, f) == null) {
                    out.accept(new DvmAction.OpenTaskInput(job, file.sandbox(), file.stdin()));
                }
            }
            case HeadAction.StdinCredit(long limit) -> {
                if (targets.containsKey(job)) {
                    out.accept(new DvmAction.TaskInputCredit(job, limit));
                }
            }
            default -> {
            }
        }
    }

    /** A chunk of job {@code job}'s file (empty: its end), down to its rank 0; nothing once the job has ended. */
    void data(int job, byte[] data) {
        HeadAction.ForwardStdin target = targets.get(job);
        if (target == null) {
            return;
        }
        OverlayMessage.StdinData chunk = new OverlayMessage.StdinData(job, target.rank(), data);
        for (int d : target.daemonIds()) {
            out.accept(new DvmAction.ToDaemon(d, chunk));
        }
    }

    /** Job {@code job} ended, or its task left it: its file is read no more. */
    void ended(int job) {
        files.remove(job);
        if (targets.remove(job) != null) {
            out.accept(new DvmAction.CloseTaskInput(job));
        }
    }
}
