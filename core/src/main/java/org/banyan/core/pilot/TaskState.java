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

    private static final int COUNT = values().length;
    /** {@link #path} for every pair ({@code from} × {@code to}), worked out once: a client asks it some ten times a task. */
    private static final List<List<TaskState>> PATHS = new ArrayList<>();

    static {
        for (TaskState from : values()) {
            for (TaskState to : values()) {
                PATHS.add(from.isFinal() || to.compareTo(from) <= 0 ? null : List.copyOf(walk(from, to)));
            }
        }
    }

    public boolean isFinal() {
        return this == DONE || this == FAILED || this == CANCELED;
    }

    private final String component = name().startsWith("AGENT") ? "agent" : "tmgr";

    /** The component a state belongs to, as RADICAL-Pilot's profiles name it: {@code agent} or {@code tmgr}. */
    public String component() {
        return component;
    }

    /**
     * The states a task passes through from {@code from} (excluded) to {@code to} (included): the
     * ones skipped, in order, then {@code to}. A final state is reached from any state directly;
     * nothing leaves a final state, and no state goes back.
     *
     * @throws IllegalStateException for a move backwards or out of a final state
     */
    public static List<TaskState> path(TaskState from, TaskState to) {
        List<TaskState> p = PATHS.get(from.ordinal() * COUNT + to.ordinal());
        if (p == null) {
            throw new IllegalStateException("a task cannot go from " + from + " to " + to);
        }
        return p;
    }

    private static List<TaskState> walk(TaskState from, TaskState to) {
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
