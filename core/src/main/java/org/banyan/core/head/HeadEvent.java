package org.banyan.core.head;

import org.banyan.core.wire.OverlayMessage;

/** What happens to the head; fed one at a time to {@link HeadCore#handle}. */
public sealed interface HeadEvent {
    record FromDaemon(int daemonId, OverlayMessage message) implements HeadEvent {}

    /** A daemon's connection closed, or its process could not be started or died. */
    record DaemonLost(int daemonId, String reason) implements HeadEvent {}

    /** The user sent {@code signal} to the head (Ctrl-C is SIGINT). */
    record UserSignal(int signal) implements HeadEvent {}

    record TimerFired(HeadTimer timer) implements HeadEvent {}
}
