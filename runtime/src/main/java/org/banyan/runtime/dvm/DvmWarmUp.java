package org.banyan.runtime.dvm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage;

/**
 * Runs a few hundred {@code /bin/true} tasks per host through a fresh DVM before users get it.
 * A DVM's JVMs interpret the task path until the JIT has compiled it: measured on a 2-slot host,
 * a fresh DVM ran its first 1,000 tasks at 1,500–1,700/s and later ones at 2,500–2,800/s; after
 * 300–600 warm-up tasks the first 1,000 ran at 2,050–2,340/s. The tasks use the same path as
 * users' (agent, overlay, posix_spawn, reaper, batched ends) but leave nothing behind: they run in
 * {@code /tmp}, which every host has, with their output going to {@code /dev/null}.
 */
public final class DvmWarmUp {
    /**
     * Tasks per host unless told: enough for C1 to compile the per-task methods. A fresh JVM
     * compiles some 2,000 methods in its first second, and while C1's queue is long each method
     * needs several times its 50 calls (HotSpot scales the thresholds with the queue): after 500
     * tasks the reaper's and the agent's per-task methods were still interpreted, and the first
     * bag's first 1,000 tasks ran at 0.65-0.71 of its later rate (4 fresh DVMs); after 1,500,
     * at 0.83-0.94 with {@code DaemonCommand}'s lighter scaling (4 more). It costs about 0.4 s more of
     * {@code dvm start} on a 2-core host.
     */
    public static final int DEFAULT_PER_HOST = 1500;
    /** A warm-up that takes longer is cut short: it only speeds up the first tasks. */
    public static final long TIMEOUT_MILLIS = 30_000;
    /** With many hosts the head, warmed by any thousands, is what limits, not each daemon. */
    static final int MAX_TASKS = 20_000;

    /** What the warm-up did: tasks that ended DONE, tasks that did not, and how long it took. */
    public record Outcome(int done, int notDone, long millis, String firstFailure) {
        /** How many tasks did not end DONE and why the first did not, or null when all did. */
        public String failures() {
            return notDone == 0 ? null : notDone + " of " + (done + notDone)
                    + " warm-up tasks (/bin/true) did not end DONE, the first " + firstFailure;
        }
    }

    private DvmWarmUp() {}

    /** How many warm-up tasks a DVM of {@code hosts} hosts gets. */
    public static int count(int hosts, int perHost) {
        return (int) Math.min(MAX_TASKS, (long) hosts * perHost);
    }

    /** The warm-up's tasks for a DVM of {@code hosts} hosts. */
    static List<TaskRequest> tasks(int hosts, int perHost) {
        int n = count(hosts, perHost);
        List<TaskRequest> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new TaskRequest("warm-up." + i, "/bin/true", List.of(), Map.of(), "/tmp", "/dev/null", "/dev/null",
                    null, List.of(), List.of(), SlotRequest.cores(1), 0, false, 0, false, List.of()));
        }
        return out;
    }

    /**
     * Submits the warm-up through {@code client} and waits for every task's end, or cancels what
     * is left after {@link #TIMEOUT_MILLIS}: a DVM that warms slowly is still a working DVM.
     */
    public static Outcome run(DvmClient client, int perHost) throws IOException {
        long t0 = System.nanoTime();
        List<TaskRequest> tasks = tasks(client.welcome().hosts(), perHost);
        if (tasks.isEmpty()) {
            return new Outcome(0, 0, 0, null);
        }
        List<Integer> ids = client.submit(tasks);
        Set<Integer> open = new HashSet<>(ids);
        int done = 0;
        int notDone = 0;
        String firstFailure = null;
        Thread canceller = Thread.ofPlatform().daemon().name("warm-up-timeout").start(() -> {
            try {
                Thread.sleep(TIMEOUT_MILLIS);
                client.cancel(ids); // the DVM skips those that ended
            } catch (InterruptedException | IOException e) {
                // finished first, or the DVM is gone and updates() says so
            }
        });
        try {
            while (!open.isEmpty()) {
                for (ClientMessage.TaskUpdate u : client.updates()) {
                    if (u.state().isFinal() && open.remove(u.taskId())) {
                        if (u.state() == TaskState.DONE) {
                            done++;
                        } else {
                            notDone++;
                            if (firstFailure == null) {
                                firstFailure = u.state() + (u.detail() == null || u.detail().isEmpty() ? "" : ": " + u.detail());
                            }
                        }
                    }
                }
            }
        } finally {
            canceller.interrupt();
        }
        return new Outcome(done, notDone, (System.nanoTime() - t0) / 1_000_000, firstFailure);
    }
}
