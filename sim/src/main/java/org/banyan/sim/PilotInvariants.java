package org.banyan.sim;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.banyan.core.pilot.TaskState;

/**
 * What must hold after every event of a {@link PilotSimulation}, checked where the event changed
 * something (a check of every host after every event would cost 10,000 hosts a step):
 * <ul>
 *   <li>no core given out twice: no host runs more task processes than it has cores, and the
 *       DVM core's free cores there never exceed what its running tasks leave (tasks queued on a
 *       daemon behind a running one hold that one's cores, so fewer may be free);</li>
 *   <li>each task's states, as a client is told them, come in order (a task whose host was
 *       lost may go back to scheduling, to run again elsewhere), nothing after a final state, and
 *       no final state while its process runs;</li>
 *   <li>at the end, every task has exactly one final state, no host runs a task, and every core
 *       of a host in service is free.</li>
 * </ul>
 * A broken invariant throws {@link IllegalStateException} naming the task or host and the event.
 */
public final class PilotInvariants {
    private final int cores;
    private final int[] running;
    private final boolean[] lost;
    /** Each task's host while its process runs there, else -1. */
    private final int[] hostOf;
    /** The host each task was last sent to (running, starting or queued there), else -1. */
    private final int[] sentTo;
    private final TaskState[] state;
    private final boolean[] mayRestart;
    private final int[] finals;
    private final Map<TaskState, Integer> counts = new EnumMap<>(TaskState.class);
    private final int[] dirty = new int[64];
    private int dirtyCount;
    private boolean dirtyOverflow;
    private long checks;
    private int finalCount;

    PilotInvariants(int hosts, int coresPerHost, int tasks) {
        cores = coresPerHost;
        running = new int[hosts];
        lost = new boolean[hosts];
        hostOf = new int[tasks + 1];
        java.util.Arrays.fill(hostOf, -1);
        sentTo = new int[tasks + 1];
        java.util.Arrays.fill(sentTo, -1);
        state = new TaskState[tasks + 1];
        mayRestart = new boolean[tasks + 1];
        finals = new int[tasks + 1];
    }

    /** The head sent task {@code task} to host {@code host}'s daemon (to start now or behind another). */
    void sent(int task, int host) {
        sentTo[task] = host;
    }

    /** Host {@code host}'s daemon started task {@code task}'s process. */
    void started(int task, int host) {
        if (hostOf[task] >= 0) {
            throw new IllegalStateException("task " + task + " started on host " + host + " while it runs on " + hostOf[task]);
        }
        if (lost[host]) {
            throw new IllegalStateException("task " + task + " started on lost host " + host);
        }
        if (state[task] != null && state[task].isFinal()) {
            throw new IllegalStateException("task " + task + " started after its final state " + state[task]);
        }
        hostOf[task] = host;
        if (++running[host] > cores) {
            throw new IllegalStateException("host " + host + " runs " + running[host] + " tasks on " + cores + " cores");
        }
        touch(host);
    }

    void ended(int task, int host) {
        if (hostOf[task] != host) {
            throw new IllegalStateException("task " + task + " ended on host " + host + " but runs on " + hostOf[task]);
        }
        hostOf[task] = -1;
        running[host]--;
        touch(host);
    }

    void hostLost(int host) {
        lost[host] = true;
        for (int t = 1; t < hostOf.length; t++) {
            if (hostOf[t] == host || sentTo[t] == host) { // running, or on its way there, or queued there
                hostOf[t] = -1;
                sentTo[t] = -1;
                mayRestart[t] = true;
            }
        }
        running[host] = 0;
    }

    /** The observing client was told task {@code task} is now {@code to}. */
    void state(int task, TaskState to) {
        TaskState from = state[task];
        if (from != null && from.isFinal()) {
            throw new IllegalStateException("task " + task + " moved to " + to + " after its final state " + from);
        }
        if (from != null && to.compareTo(from) < 0) {
            boolean restart = mayRestart[task] && to.compareTo(TaskState.AGENT_EXECUTING) < 0;
            if (!restart) {
                throw new IllegalStateException("task " + task + " moved back from " + from + " to " + to);
            }
            mayRestart[task] = false;
        }
        state[task] = to;
        if (to.isFinal()) {
            finals[task]++;
            finalCount++;
            counts.merge(to, 1, Integer::sum);
            if (hostOf[task] >= 0) {
                throw new IllegalStateException("task " + task + " is " + to + " while it still runs on host " + hostOf[task]);
            }
        }
    }

    /** Whether every task has had its final state (the run is over). */
    boolean allFinal() {
        return finalCount == state.length - 1;
    }

    private void touch(int host) {
        if (dirtyCount < dirty.length) {
            dirty[dirtyCount++] = host;
        } else {
            dirtyOverflow = true;
        }
    }

    /** After an event: the hosts it touched (all of them when it touched many); {@code freeCoresOn} by host. */
    void check(IntUnaryOperator freeCoresOn) {
        checks++;
        if (dirtyOverflow) {
            for (int h = 0; h < running.length; h++) {
                checkHost(h, freeCoresOn);
            }
        } else {
            for (int i = 0; i < dirtyCount; i++) {
                checkHost(dirty[i], freeCoresOn);
            }
        }
        dirtyCount = 0;
        dirtyOverflow = false;
    }

    private void checkHost(int h, IntUnaryOperator freeCoresOn) {
        if (lost[h]) {
            return;
        }
        int free = freeCoresOn.applyAsInt(h);
        if (free < 0 || free > cores - running[h]) {
            throw new IllegalStateException("host " + h + ": the scheduler has " + free + " cores free, the "
                    + running[h] + " tasks running there leave " + (cores - running[h]));
        }
    }

    /** At the end: one final state each, nothing running, every core of a host in service free. */
    void finished(IntUnaryOperator freeCoresOn) {
        for (int t = 1; t < state.length; t++) {
            if (finals[t] != 1) {
                throw new IllegalStateException("task " + t + " has " + finals[t] + " final states (last " + state[t] + ")");
            }
            if (hostOf[t] >= 0) {
                throw new IllegalStateException("task " + t + " still runs on host " + hostOf[t]);
            }
        }
        for (int h = 0; h < running.length; h++) {
            if (!lost[h] && freeCoresOn.applyAsInt(h) != cores) {
                throw new IllegalStateException("host " + h + " has " + freeCoresOn.applyAsInt(h) + " of " + cores
                        + " cores free at the end");
            }
        }
    }

    int count(TaskState s) {
        return counts.getOrDefault(s, 0);
    }

    long checks() {
        return checks;
    }
}
