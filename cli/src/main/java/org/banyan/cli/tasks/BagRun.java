package org.banyan.cli.tasks;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskDependency;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * What {@code banyan submit} does once its input is read: one session on a DVM, its tasks
 * followed to their end with a progress bar when asked, then a summary and the failed tasks'
 * details. Apart from the command's parsing so that where it prints, where relative paths start
 * and who hears the user's signals are given to it rather than taken from this process.
 */
final class BagRun {
    /**
     * Tasks are handed to the task manager this many at a time, the next ones once no more than
     * half as many wait to start (more than the pilot's window, so the manager still has some to
     * send while the next ones are made). Making a task costs the JVM about what starting it
     * does, and making a 100,000-task bag's tasks at once, then copying them in a young
     * collection, took its first 1,000 tasks down to about three quarters of the later rate.
     * Waiting, not unfinished: running tasks must not hold the next ones back, or a DVM with
     * more cores than this would never run more long tasks at once. Only when the tasks share
     * one priority: otherwise a later urgent one must be seen at once.
     */
    static final int SLICE = 4096;

    private final DvmFiles dvm;
    private final Path sessionDir;
    private final Path base;
    private final PrintStream err;
    private final boolean bar;
    private final Consumer<IntConsumer> signals;
    private boolean keepEmptyOutput;

    /**
     * @param base    where the tasks' relative paths start (the submitter's working directory)
     * @param bar     whether to draw a progress bar on {@code err}
     * @param signals takes the handler for the user's signals (Ctrl-C...): they cancel the tasks
     */
    BagRun(DvmFiles dvm, Path sessionDir, Path base, PrintStream err, boolean bar, Consumer<IntConsumer> signals) {
        this.dvm = dvm;
        this.sessionDir = sessionDir;
        this.base = base;
        this.err = err;
        this.bar = bar;
        this.signals = signals;
    }

    /** {@code --keep-empty-output}: a DONE task that wrote nothing keeps its empty files and sandbox. */
    BagRun keepEmptyOutput(boolean keep) {
        keepEmptyOutput = keep;
        return this;
    }

    /**
     * Why the tasks cannot run, when one depends on a task the DVM does not know (a mistyped id,
     * or one forgotten long ago): bad input, found before any task goes, where the agent would
     * fail each task on its own. Null when they name none, or the DVM cannot be asked (the pilot
     * says why then).
     */
    private String unknownDependency(List<TaskDescription> descriptions) {
        java.util.Set<Integer> named = new java.util.TreeSet<>();
        if (descriptions instanceof BagTasks lazy) {
            named.addAll(lazy.dependencyIds());
        } else {
            for (TaskDescription d : descriptions) {
                named.addAll(TaskDependency.ids(d.dependencies()));
            }
        }
        if (named.isEmpty()) {
            return null;
        }
        try (DvmClient c = DvmClient.connect(dvm, "banyan submit")) {
            named.removeAll(c.watch(List.copyOf(named)));
        } catch (DvmClient.Unreachable | java.io.IOException e) {
            return null;
        }
        return named.isEmpty() ? null : "a dependency names " + (named.size() == 1 ? "task " : "tasks ") + TaskIds.format(List.copyOf(named))
                + ", which this DVM does not know (ids are what banyan submit --detach printed; finished tasks are kept as "
                + "banyan wait keeps them); no task was submitted";
    }

    /**
     * Runs {@code descriptions} and follows them to their end (exit status 0 only if every one
     * succeeded); with {@code detach}, only submits them and prints their ids on {@code out}.
     */
    int run(List<TaskDescription> descriptions, boolean detach, PrintStream out) {
        long start = System.nanoTime();
        String unknown = unknownDependency(descriptions);
        if (unknown != null) {
            err.println("banyan submit: " + unknown);
            return 2;
        }
        Session made;
        try {
            made = new Session(sessionDir, base);
        } catch (UncheckedIOException e) { // a directory that cannot be made, or another session's
            err.println("banyan submit: " + e.getMessage());
            return 2;
        }
        try (Session session = made) {
            PilotManager pmgr = new PilotManager(session);
            TaskManager tmgr = new TaskManager(session).keepEmptyOutput(keepEmptyOutput);
            Pilot pilot = pmgr.submit(PilotDescription.dvm(dvm.uri()));
            if (pilot.waitState(PilotState.PMGR_ACTIVE, 60_000) != PilotState.PMGR_ACTIVE) {
                err.println("banyan submit: the DVM did not take the tasks: " + pilot.detail());
                return 1;
            }
            if (detach) {
                tmgr.detach();
                tmgr.addPilots(pilot);
                List<Task> tasks = tmgr.submit(List.copyOf(descriptions)); // a task file's are made here, each once
                List<Integer> ids = tasks.stream().map(Task::dvmId).toList();
                out.println(TaskIds.format(ids));
                boolean one = ids.size() == 1;
                // the ids are the DVM's and the sandboxes the session's: say how one finds the other
                err.println("banyan submit: " + ids.size() + (one ? " task submitted (id " : " tasks submitted (ids ") + TaskIds.format(ids)
                        + (one ? "); follow it with banyan wait, end it with banyan cancel; its sandbox is " + tasks.getFirst().sandbox()
                        : "); follow them with banyan wait, end them with banyan cancel; their sandboxes, in the same order, are "
                                + tasks.getFirst().sandbox() + " to " + tasks.getLast().sandbox().getFileName()));
                return ids.contains(-1) ? 1 : 0;
            }
            tmgr.addPilots(pilot);
            Ends ends = new Ends();
            tmgr.registerCallback(ends::reached);
            List<Task> tasks = new ArrayList<>(descriptions.size());
            AtomicBoolean stopped = new AtomicBoolean();
            signals.accept(sig -> {
                stopped.set(true);
                List<Task> given;
                synchronized (tasks) {
                    given = List.copyOf(tasks);
                }
                tmgr.cancel(given);
                ends.wake();
            });
            int total = descriptions.size();
            // Tasks of several priorities go at once: the manager sends the higher first.
            int slice = (descriptions instanceof BagTasks lazy ? lazy.onePriority() : TaskDescription.onePriority(descriptions))
                    ? SLICE : total;
            while (true) {
                int given = tasks.size();
                if (!stopped.get() && given < total && given - ends.out() <= slice / 2) {
                    // copied: a task file's descriptions are made from its lines at each get, and here once
                    List<Task> part = tmgr.submit(List.copyOf(descriptions.subList(given, Math.min(total, given + slice))));
                    synchronized (tasks) {
                        tasks.addAll(part);
                    }
                    if (stopped.get()) {
                        tmgr.cancel(part); // signalled while it was being handed over
                    }
                    continue;
                }
                boolean last = given == total || stopped.get();
                if (last && ends.finished() >= given) {
                    break;
                }
                if (bar) {
                    progress(err, total, ends.done.get(), ends.failed.get(), ends.canceled.get(), start);
                }
                if (last) {
                    ends.awaitFinished(given, bar ? 200 : 1000);
                } else {
                    ends.awaitOut(given - slice / 2, bar ? 200 : 1000);
                }
            }
            int notGiven = total - tasks.size(); // a signal came first: they count as canceled
            ends.canceled.addAndGet(notGiven);
            if (bar) {
                progress(err, total, ends.done.get(), ends.failed.get(), ends.canceled.get(), start);
                err.println();
            }
            double secs = (System.nanoTime() - start) / 1e9;
            List<Task> bad = new ArrayList<>();
            for (Task t : tasks) {
                if (t.state() == TaskState.FAILED) {
                    bad.add(t);
                }
            }
            for (Task t : bad.subList(0, Math.min(10, bad.size()))) {
                String name = t.description().name();
                err.println("banyan submit: " + t.uid() + (name != null ? " (" + name + ")" : "") + " failed (" + ExitShown.of(t.exitCode())
                        + "), sandbox " + t.sandbox()
                        + (t.detail().isBlank() ? "" : ":\n    " + t.detail().replace("\n", "\n    ")));
            }
            if (bad.size() > 10) {
                err.println("banyan submit: ... and " + (bad.size() - 10) + " more failed");
            }
            String lost = session.profile().flushNow();
            err.println(String.format(Locale.ROOT, "banyan submit: %d task%s: %d done, %d failed, %d canceled in %.2f s "
                            + "(%.0f tasks/s); profile in %s%s", total, total == 1 ? "" : "s", ends.done.get(), ends.failed.get(),
                    ends.canceled.get(), secs, total / secs, session.dir().resolve("banyan.prof"),
                    lost == null ? "" : ", incomplete: it could not be written (" + lost + ")"));
            return ends.done.get() == total ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /**
     * The bag's tasks that ended, by final state; how many are out of the queues (started, or
     * ended without starting); and a wait for enough of either.
     */
    private static final class Ends {
        final AtomicInteger done = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicInteger canceled = new AtomicInteger();
        private final AtomicInteger finished = new AtomicInteger();
        private final AtomicInteger out = new AtomicInteger();
        /** The count the waiter watches and how many wake it; its thread sets them, the manager's threads count. */
        private volatile AtomicInteger watched;
        private volatile int wakeAt = Integer.MAX_VALUE;

        void reached(Task t, TaskState s) {
            switch (s) {
                case AGENT_EXECUTING -> {
                    count(out); // the agent reports it for every task it starts
                    return;
                }
                case DONE -> done.incrementAndGet();
                case FAILED -> failed.incrementAndGet();
                case CANCELED -> canceled.incrementAndGet();
                default -> {
                    return; // on its way
                }
            }
            if (!t.reached(TaskState.AGENT_EXECUTING)) {
                count(out);
            }
            count(finished);
        }

        private void count(AtomicInteger c) {
            if (c.incrementAndGet() >= wakeAt && watched == c) {
                wake();
            }
        }

        int finished() {
            return finished.get();
        }

        int out() {
            return out.get();
        }

        synchronized void wake() {
            wakeAt = Integer.MAX_VALUE;
            notifyAll();
        }

        /** Until {@code count} tasks have ended, {@link #wake} is called, or {@code millis} pass. */
        void awaitFinished(int count, long millis) throws InterruptedException {
            await(finished, count, millis);
        }

        /** Until {@code count} tasks are out of the queues, {@link #wake} is called, or {@code millis} pass. */
        void awaitOut(int count, long millis) throws InterruptedException {
            await(out, count, millis);
        }

        private synchronized void await(AtomicInteger c, int count, long millis) throws InterruptedException {
            if (c.get() < count) {
                watched = c;
                wakeAt = count;
                if (c.get() < count) { // a count between the check and the store would not wake us
                    wait(millis);
                }
                wakeAt = Integer.MAX_VALUE;
            }
        }
    }

    private static void progress(PrintStream err, int total, int done, int failed, int canceled, long start) {
        int width = 30;
        int finished = done + failed + canceled;
        int filled = total == 0 ? width : (int) ((long) finished * width / total);
        double secs = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        err.print(String.format(Locale.ROOT, "\r[%s%s] %d/%d  done %d  failed %d  canceled %d  %.0f tasks/s ",
                "#".repeat(filled), ".".repeat(width - filled), finished, total, done, failed, canceled, finished / secs));
        err.flush();
    }
}
