package org.banyan.core.dvm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.pilot.TaskState;

/**
 * What a person watching the DVM sees, kept by the core as it decides (the dashboard's feed):
 * tasks by state, starts and ends per second, the longest-running tasks, the last failures, the
 * resource manager's sizes over time and the DVM's decisions as a timeline. Its cost is a few
 * counter updates per task state and lists of fixed bounds, so a bag of a million tasks costs
 * the head no more than one of ten; nothing here grows with the tasks.
 */
final class DvmView {
    /** Seconds of start and end rates kept. */
    static final int RATE_SECONDS = 600;
    static final int KEEP_FAILED = 50;
    static final int KEEP_SLOWEST = 20;
    static final int KEEP_DECISIONS = 500;
    static final int KEEP_SIZES = 2000;

    private long waiting;
    private long running;
    private long done;
    private long failed;
    private long canceled;
    private final long[] started = new long[RATE_SECONDS];
    private final long[] ended = new long[RATE_SECONDS];
    /** The second (since the epoch) of the newest rate bucket. */
    private long newestSecond = -1;
    private final LinkedHashMap<Integer, DvmSnapshot.Running> runningTasks = new LinkedHashMap<>();
    private final ArrayDeque<DvmSnapshot.Failed> failures = new ArrayDeque<>();
    private final ArrayDeque<DvmSnapshot.Decision> decisions = new ArrayDeque<>();
    private final ArrayDeque<DvmSnapshot.Size> sizes = new ArrayDeque<>();
    private final Map<Integer, Integer> lastSize = new LinkedHashMap<>();

    /**
     * Task {@code taskId} went from {@code from} (null: it is new) to {@code to}.
     *
     * @param name its name, or null when it is not known any more
     * @param tag  its colocation tag, or null
     */
    void state(int taskId, TaskState from, TaskState to, long nowMicros, int exitCode, String detail, String name, String tag) {
        if (from == to) {
            return;
        }
        leave(from);
        if (to.isFinal()) {
            tick(nowMicros);
            ended[slot(newestSecond)]++;
            DvmSnapshot.Running r = runningTasks.remove(taskId);
            switch (to) {
                case DONE -> done++;
                case CANCELED -> canceled++;
                default -> {
                    failed++;
                    failures.addLast(new DvmSnapshot.Failed(taskId, r != null ? r.name() : name,
                            r != null ? r.tag() : tag, nowMicros, exitCode, detail));
                    if (failures.size() > KEEP_FAILED) {
                        failures.removeFirst();
                    }
                }
            }
        } else if (to == TaskState.AGENT_EXECUTING) {
            running++;
            tick(nowMicros);
            started[slot(newestSecond)]++;
            runningTasks.put(taskId, new DvmSnapshot.Running(taskId, name, tag, nowMicros));
        } else {
            waiting++;
            if (from == TaskState.AGENT_EXECUTING) { // back to scheduling: its host was lost
                runningTasks.remove(taskId);
            }
        }
    }

    private void leave(TaskState from) {
        if (from == null || from.isFinal()) {
            return;
        }
        if (from == TaskState.AGENT_EXECUTING) {
            running--;
        } else {
            waiting--;
        }
    }

    /** A line of the DVM's log. */
    void said(long nowMicros, String line) {
        decisions.addLast(new DvmSnapshot.Decision(nowMicros, line));
        if (decisions.size() > KEEP_DECISIONS) {
            decisions.removeFirst();
        }
    }

    /** Queued job {@code queueId} has {@code ranks} ranks now (0: it ended). */
    void size(long nowMicros, int queueId, int ranks) {
        Integer before = lastSize.get(queueId);
        if (before != null && before == ranks) {
            return;
        }
        if (ranks == 0) {
            lastSize.remove(queueId);
        } else {
            lastSize.put(queueId, ranks);
        }
        sizes.addLast(new DvmSnapshot.Size(nowMicros, queueId, ranks));
        if (sizes.size() > KEEP_SIZES) {
            sizes.removeFirst();
        }
    }

    /** The queued jobs whose size was last seen above 0. */
    Iterable<Integer> sizedJobs() {
        return List.copyOf(lastSize.keySet());
    }

    private void tick(long nowMicros) {
        long second = nowMicros / 1_000_000;
        if (newestSecond < 0) {
            newestSecond = second;
            return;
        }
        if (second <= newestSecond) {
            return;
        }
        for (long s = newestSecond + 1; s <= second && s <= newestSecond + RATE_SECONDS; s++) {
            started[slot(s)] = 0;
            ended[slot(s)] = 0;
        }
        newestSecond = second;
    }

    private static int slot(long second) {
        return (int) Math.floorMod(second, (long) RATE_SECONDS);
    }

    /** The view at {@code nowMicros}, with the rates of the last {@code seconds} seconds (oldest first). */
    DvmSnapshot.Tasks tasks(long nowMicros, int seconds) {
        tick(nowMicros);
        int n = Math.min(seconds, RATE_SECONDS);
        long[] s = new long[n];
        long[] e = new long[n];
        long last = newestSecond < 0 ? nowMicros / 1_000_000 : newestSecond;
        for (int i = 0; i < n; i++) {
            long second = last - (n - 1 - i);
            if (newestSecond >= 0 && second > newestSecond - RATE_SECONDS) {
                s[i] = started[slot(second)];
                e[i] = ended[slot(second)];
            }
        }
        List<DvmSnapshot.Running> slowest = new ArrayList<>(KEEP_SLOWEST);
        Iterator<DvmSnapshot.Running> it = runningTasks.values().iterator();
        while (it.hasNext() && slowest.size() < KEEP_SLOWEST) {
            slowest.add(it.next());
        }
        return new DvmSnapshot.Tasks(waiting, running, done, failed, canceled, last - n + 1, s, e, slowest, List.copyOf(failures));
    }

    List<DvmSnapshot.Decision> decisions(int last) {
        List<DvmSnapshot.Decision> all = List.copyOf(decisions);
        return all.subList(Math.max(0, all.size() - last), all.size());
    }

    List<DvmSnapshot.Size> sizes() {
        return List.copyOf(sizes);
    }
}
