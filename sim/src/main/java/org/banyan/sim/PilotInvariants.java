package org.banyan.sim;

import java.util.EnumMap;
import java.util.Map;
import org.banyan.core.pilot.AgentScheduler;
import org.banyan.core.pilot.TaskState;

/**
 * What must hold after every event of a {@link PilotSimulation}, checked where the event changed
 * something (a check of every host after every event would cost 10,000 hosts a step):
 * <ul>
 *   <li>no core given out twice: on every host the tasks placed and not yet reported over fit its
 *       cores, and the scheduler's free cores there are exactly the rest;</li>
 *   <li>each task's states come in order (a task whose host was lost may go back to scheduling,
 *       to run again elsewhere), nothing after a final state;</li>
 *   <li>at the end, every task has exactly one final state and no host holds a task.</li>
 * </ul>
 * A broken invariant throws {@link IllegalStateException} naming the task or host and the event.
 */
public final class PilotInvariants {
    private final int cores;
    private final int[] held;
    private final boolean[] lost;
    /** Each task's host while it is placed there, else -1. */
    private final int[] hostOf;
    private final TaskState[] state;
    private final boolean[] mayRestart;
    private final boolean[] killed;
    private final int[] finals;
    private final Map<TaskState, Integer> counts = new EnumMap<>(TaskState.class);
    private final int[] dirty = new int[64];
    private int dirtyCount;
    private boolean dirtyOverflow;
    private long checks;

    PilotInvariants(int hosts, int coresPerHost, int tasks) {
        cores = coresPerHost;
        held = new int[hosts];
        lost = new boolean[hosts];
        hostOf = new int[tasks + 1];
        java.util.Arrays.fill(hostOf, -1);
        state = new TaskState[tasks + 1];
        mayRestart = new boolean[tasks + 1];
        killed = new boolean[tasks + 1];
        finals = new int[tasks + 1];
    }

    void launched(int task, int host) {
        if (hostOf[task] >= 0) {
            throw new IllegalStateException("task " + task + " launched on host " + host + " while still placed on " + hostOf[task]);
        }
        if (lost[host]) {
            throw new IllegalStateException("task " + task + " launched on lost host " + host);
        }
        hostOf[task] = host;
        held[host]++;
        touch(host);
    }

    void ended(int task, int host) {
        if (hostOf[task] != host) {
            throw new IllegalStateException("task " + task + " reported over on host " + host + " but placed on " + hostOf[task]);
        }
        hostOf[task] = -1;
        held[host]--;
        touch(host);
    }

    void kill(int task) {
        killed[task] = true;
    }

    boolean killed(int task) {
        return killed[task];
    }

    void hostLost(int host) {
        lost[host] = true;
        for (int t = 1; t < hostOf.length; t++) {
            if (hostOf[t] == host) {
                hostOf[t] = -1;
                mayRestart[t] = true;
            }
        }
        held[host] = 0;
    }

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
            counts.merge(to, 1, Integer::sum);
            if (hostOf[task] >= 0) {
                throw new IllegalStateException("task " + task + " is " + to + " while still placed on host " + hostOf[task]);
            }
        }
    }

    private void touch(int host) {
        if (dirtyCount < dirty.length) {
            dirty[dirtyCount++] = host;
        } else {
            dirtyOverflow = true;
        }
    }

    /** After an event: the hosts it touched (all of them when it touched many). */
    void check(AgentScheduler scheduler) {
        checks++;
        if (dirtyOverflow) {
            for (int h = 0; h < held.length; h++) {
                checkHost(h, scheduler);
            }
        } else {
            for (int i = 0; i < dirtyCount; i++) {
                checkHost(dirty[i], scheduler);
            }
        }
        dirtyCount = 0;
        dirtyOverflow = false;
    }

    private void checkHost(int h, AgentScheduler scheduler) {
        if (lost[h]) {
            return;
        }
        if (held[h] < 0 || held[h] > cores) {
            throw new IllegalStateException("host " + h + " holds " + held[h] + " tasks on " + cores + " cores");
        }
        if (scheduler.freeCoresOn(h) != cores - held[h]) {
            throw new IllegalStateException("host " + h + ": the scheduler has " + scheduler.freeCoresOn(h)
                    + " cores free, the tasks placed there leave " + (cores - held[h]));
        }
    }

    /** At the end: one final state each, nothing placed. */
    void finished() {
        for (int t = 1; t < state.length; t++) {
            if (finals[t] != 1) {
                throw new IllegalStateException("task " + t + " has " + finals[t] + " final states (last " + state[t] + ")");
            }
            if (hostOf[t] >= 0) {
                throw new IllegalStateException("task " + t + " is still placed on host " + hostOf[t]);
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
