package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.List;

/**
 * A task's states, as RADICAL-Pilot names and orders them: each state has its {@code _PENDING}
 * predecessor (queued for the component that moves it on), states compare by their order, and a
 * task that skips states (a task with no staging) is reported through every one it skipped
 * ({@link #path}) so that every task's profile has the same columns.
 */
public enum TaskState {
    NEW,
    TMGR_SCHEDULING_PENDING,
    TMGR_SCHEDULING,
    TMGR_STAGING_INPUT_PENDING,
    TMGR_STAGING_INPUT,
    AGENT_STAGING_INPUT_PENDING,
    AGENT_STAGING_INPUT,
    AGENT_SCHEDULING_PENDING,
    AGENT_SCHEDULING,
    AGENT_EXECUTING_PENDING,
    AGENT_EXECUTING,
    AGENT_STAGING_OUTPUT_PENDING,
    AGENT_STAGING_OUTPUT,
    TMGR_STAGING_OUTPUT_PENDING,
    TMGR_STAGING_OUTPUT,
    DONE,
    FAILED,
    CANCELED;

    public boolean isFinal() {
        return this == DONE || this == FAILED || this == CANCELED;
    }

    /**
     * The states a task passes through from {@code from} (excluded) to {@code to} (included): the
     * ones skipped, in order, then {@code to}. A final state is reached from any state directly;
     * nothing leaves a final state, and no state goes back.
     *
     * @throws IllegalStateException for a move backwards or out of a final state
     */
    public static List<TaskState> path(TaskState from, TaskState to) {
        if (from.isFinal() || to.compareTo(from) <= 0) {
            throw new IllegalStateException("a task cannot go from " + from + " to " + to);
        }
        List<TaskState> out = new ArrayList<>();
        if (to.isFinal() && to != DONE) {
            out.add(to);
            return out;
        }
        for (TaskState s : values()) {
            if (s.compareTo(from) > 0 && s.compareTo(to) <= 0 && !(s.isFinal() && s != to)) {
                out.add(s);
            }
        }
        return out;
    }
}
