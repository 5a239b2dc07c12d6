package org.banyan.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * What {@code banyan submit} does once its input is read: one session on a DVM, its tasks
 * followed to their end with a progress bar when asked, then a summary and the failed tasks'
 * details. Apart from the command's parsing so that where it prints, where relative paths start
 * and who hears the user's signals are given to it rather than taken from this process.
 */
final class BagRun {
    private final DvmFiles dvm;
    private final Path sessionDir;
    private final Path base;
    private final PrintStream err;
    private final boolean bar;
    private final Consumer<IntConsumer> signals;

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

    /**
     * Runs {@code descriptions} and follows them to their end (exit status 0 only if every one
     * succeeded); with {@code detach}, only submits them and prints their ids on {@code out}.
     */
    int run(List<TaskDescription> descriptions, boolean detach, PrintStream out) {
        long start = System.nanoTime();
        try (Session session = new Session(sessionDir, base)) {
            PilotManager pmgr = new PilotManager(session);
            TaskManager tmgr = new TaskManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.dvm(dvm.uri()));
            if (pilot.waitState(PilotState.PMGR_ACTIVE, 60_000) != PilotState.PMGR_ACTIVE) {
                err.println("banyan submit: the DVM did not take the tasks: " + pilot.detail());
                return 1;
            }
            if (detach) {
                tmgr.detach();
                tmgr.addPilots(pilot);
                List<Task> tasks = tmgr.submit(descriptions);
                List<Integer> ids = tasks.stream().map(Task::dvmId).toList();
                out.println(TaskIds.format(ids));
                err.println("banyan submit: " + ids.size() + " task" + (ids.size() == 1 ? "" : "s")
                        + " submitted (ids " + TaskIds.format(ids) + "); follow them with banyan wait, end them with banyan cancel");
                return ids.contains(-1) ? 1 : 0;
            }
            tmgr.addPilots(pilot);
            AtomicInteger done = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            AtomicInteger canceled = new AtomicInteger();
            tmgr.registerCallback((t, s) -> {
                switch (s) {
                    case DONE -> done.incrementAndGet();
                    case FAILED -> failed.incrementAndGet();
                    case CANCELED -> canceled.incrementAndGet();
                    default -> {
                        // in progress
                    }
                }
            });
            List<Task> tasks = tmgr.submit(descriptions);
            signals.accept(sig -> tmgr.cancel(tasks));
            int total = tasks.size();
            while (done.get() + failed.get() + canceled.get() < total) {
                if (bar) {
                    progress(err, total, done.get(), failed.get(), canceled.get(), start);
                }
                tmgr.waitTasks(tasks, java.util.Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED),
                        bar ? 200 : 1000);
            }
            if (bar) {
                progress(err, total, done.get(), failed.get(), canceled.get(), start);
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
                err.println("banyan submit: " + t.uid() + " failed (exit " + t.exitCode() + "), sandbox " + t.sandbox()
                        + (t.detail().isBlank() ? "" : ":\n    " + t.detail().replace("\n", "\n    ")));
            }
            if (bad.size() > 10) {
                err.println("banyan submit: ... and " + (bad.size() - 10) + " more failed");
            }
            err.println(String.format(Locale.ROOT, "banyan submit: %d task%s: %d done, %d failed, %d canceled in %.2f s "
                            + "(%.0f tasks/s); profile in %s", total, total == 1 ? "" : "s", done.get(), failed.get(),
                    canceled.get(), secs, total / secs, session.dir().resolve("banyan.prof")));
            return done.get() == total ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
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
