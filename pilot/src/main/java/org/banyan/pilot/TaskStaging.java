package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import org.banyan.core.pilot.TaskState;

/**
 * A task manager's staging: a task's input files before it goes to its pilot
 * (TMGR_STAGING_INPUT), its output files once its agent is done with it (TMGR_STAGING_OUTPUT),
 * each directive's locations resolved for the task and its pilot.
 */
final class TaskStaging {
    private final Path base;
    private final Path sessionDir;
    private final TaskTransitions transitions;
    /** Whether the empty output files of tasks that wrote nothing stay ({@link TaskManager#keepEmptyOutput}). */
    private volatile boolean keepEmpty;
    /** DONE tasks with only their empty output to sweep, and whether a thread takes them now. */
    private final java.util.Queue<Task> toSweep = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean sweeping = new java.util.concurrent.atomic.AtomicBoolean();
    /** Tasks whose output files are being staged: a manager that closes cancels them. */
    private final java.util.Set<Task> stagingOut = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Where a task's output is staged: a thread of its own (tests hold the work back). */
    private volatile Executor outputWork = work -> stagingThread("stage-out", work);

    /** @param base where relative client paths start (the submitter's directory) */
    TaskStaging(Path base, Path sessionDir, TaskTransitions transitions) {
        this.base = base;
        this.sessionDir = sessionDir;
        this.transitions = transitions;
    }

    /** Where a staging location of {@code t} on {@code pilot} points. */
    private Staging.Places places(Task t, Pilot pilot) {
        return new Staging.Places(base, t.sandbox(), sessionDir, sessionDir.resolve(pilot.uid()));
    }

    /** Whether {@code t} has input staging to do: files to stage in, or a sandbox to make first. */
    static boolean stagesIn(Task t) {
        return !t.description().inputStaging.isEmpty() || t.description().workdir != null;
    }

    /**
     * Starts {@code work}, which touches the user's file systems, on a platform thread of its own.
     * Not a virtual one: a file call that does not answer (a hung mount) holds its carrier, and
     * past the scheduler's most carriers (256) every virtual thread of the process waited behind
     * the stuck ones, the sweep that ends short tasks among them.
     */
    static void stagingThread(String name, Runnable work) {
        Thread.ofPlatform().daemon().name(name).start(work);
    }

    /** Stages {@code t}'s input for {@code pilot}; null when done, else what went wrong. */
    String stageIn(Task t, Pilot pilot) {
        try {
            // The daemon makes the sandbox as it starts the task; here only when something goes in
            // first, or when the task starts elsewhere (a workdir) and the daemon makes that instead.
            if (stagesIn(t)) {
                Files.createDirectories(t.sandbox());
            }
            for (Staging s : t.description().inputStaging) {
                s.stageIn(places(t, pilot));
            }
            return null;
        } catch (IOException e) {
            return e.getMessage();
        } catch (RuntimeException e) { // on a staging thread of its own: it would leave the task staging
            return e.toString();
        }
    }

    /**
     * Output staging, then DONE, or FAILED when a file could not be staged. A task that FAILED and
     * asked for it (stage_on_error) is staged too and stays FAILED with its own code and detail.
     * Every directive is tried; each that fails adds a line. Called on a pilot's reader, inside
     * {@link TaskTransitions#inCallbacks}: the task moves to TMGR_STAGING_OUTPUT there, and the
     * files are staged on a thread of its own, which makes the final move (a DONE task with
     * nothing to stage has its empty output swept on one thread with the others). On the reader,
     * one destination that does not answer (a hung mount, a FIFO nobody writes) stopped every
     * later update of that pilot's tasks.
     */
    void stageOut(Task t, boolean failed, int code, String why) {
        transitions.moveWithin(t, TaskState.TMGR_STAGING_OUTPUT, Session.nowMicros(), 0, "");
        if (failed || !t.description().outputStaging.isEmpty()) {
            stagingOut.add(t);
            outputWork.execute(() -> finishStageOut(t, failed, code, why));
            return;
        }
        // Nothing to stage, only empty files to sweep: one thread at a time takes all such tasks,
        // in order: a thread and a scope binding each would be paid by every short task
        toSweep.add(t);
        if (sweeping.compareAndSet(false, true)) {
            outputWork.execute(this::sweepAll);
        }
    }

    private void sweepAll() {
        do {
            try {
                transitions.inCallbacks(() -> {
                    for (Task t; (t = toSweep.poll()) != null; ) {
                        sweepEmpty(t);
                        transitions.moveWithin(t, TaskState.DONE, Session.nowMicros(), 0, "");
                    }
                });
            } finally { // a callback that throws leaves the next sweep to the next task's thread
                sweeping.set(false);
            }
        } while (!toSweep.isEmpty() && sweeping.compareAndSet(false, true)); // one came after the last poll
    }

    /** Tests: where output staging runs from now on. */
    void outputWorkOn(Executor executor) {
        outputWork = executor;
    }

    /** The tasks whose output files are being staged now. */
    java.util.List<Task> stagingOut() {
        return java.util.List.copyOf(stagingOut);
    }

    private void finishStageOut(Task t, boolean failed, int code, String why) {
        try {
            stageOutFiles(t, failed, code, why);
        } finally {
            stagingOut.remove(t);
        }
    }

    private void stageOutFiles(Task t, boolean failed, int code, String why) {
        StringBuilder failure = new StringBuilder(why == null ? "" : why);
        for (Staging s : t.description().outputStaging) {
            try {
                s.stageOut(places(t, t.pilot));
            } catch (IOException | RuntimeException e) {
                failure.append(failure.isEmpty() ? "" : "\n").append("output staging: ")
                        .append(e instanceof IOException ? e.getMessage() : e.toString());
            }
        }
        if (failed || !failure.isEmpty()) {
            transitions.move(t, TaskState.FAILED, Session.nowMicros(), code, failure.toString());
        } else {
            sweepEmpty(t);
            transitions.move(t, TaskState.DONE, Session.nowMicros(), 0, "");
        }
    }

    void keepEmpty(boolean keep) {
        keepEmpty = keep;
    }

    /**
     * A DONE task that wrote nothing leaves nothing: its default output files ({@code UID.out},
     * {@code UID.err}) go when empty, and its default sandbox with them when that leaves it empty.
     * 50,000 {@code /bin/true} tasks left 100,000 empty files and 50,000 directories (262 MB of
     * a file system's blocks). Files the task was told to write ({@code stdout}, {@code stderr})
     * and sandboxes the user named stay; a FAILED task's stay for whoever looks into it.
     */
    private void sweepEmpty(Task t) {
        if (keepEmpty || t.description().mode == TaskDescription.Mode.FUNCTION || t.description().attached) {
            return;
        }
        java.io.File box = t.sandbox().toFile();
        boolean out = t.description().stdout == null && removedIfEmpty(new java.io.File(box, t.uid() + ".out"));
        boolean err = t.description().stderr == null && removedIfEmpty(new java.io.File(box, t.uid() + ".err"));
        if (out && err && t.ownSandbox()) {
            box.delete(); // rmdir: only when nothing else is in it
        }
    }

    private static boolean removedIfEmpty(java.io.File f) {
        return f.length() == 0 && (f.delete() || !f.exists());
    }
}
