package org.banyan.core.pilot;

/** A pilot's states, as RADICAL-Pilot names and orders them. */
public enum PilotState {
    NEW,
    PMGR_LAUNCHING_PENDING,
    PMGR_LAUNCHING,
    PMGR_ACTIVE_PENDING,
    PMGR_ACTIVE,
    DONE,
    FAILED,
    CANCELED;

    public boolean isFinal() {
        return this == DONE || this == FAILED || this == CANCELED;
    }
}
