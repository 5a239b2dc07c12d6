package org.banyan.core.daemon;

import org.banyan.core.wire.OverlayMessage;

/** What happens to a daemon; fed one at a time to {@link DaemonCore#handle}. */
public sealed interface DaemonEvent {
    record FromHead(OverlayMessage message) implements DaemonEvent {}

    /** The connection to the head (the tree parent) is gone. */
    record HeadLost(String reason) implements DaemonEvent {}

    /**
     * A rank has ended and its output is fully forwarded; {@code note} is non-empty when it could
     * not be started at all.
     */
    record RankEnded(int rank, int status, String note) implements DaemonEvent {}

    /** A line arrived on PMI connection {@code conn}. */
    record PmiLine(int conn, String line) implements DaemonEvent {}

    /** PMI connection {@code conn} closed. */
    record PmiClosed(int conn) implements DaemonEvent {}

    record TimerFired(DaemonTimer timer) implements DaemonEvent {}
}
