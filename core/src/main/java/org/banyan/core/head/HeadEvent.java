package org.banyan.core.head;

import org.banyan.core.wire.OverlayMessage;

/** What happens to the head; fed one at a time to {@link HeadCore#handle}. */
public sealed interface HeadEvent {
    /** A message from {@code daemonId}, one of the head's children (it may relay its subtree's). */
    record FromDaemon(int daemonId, OverlayMessage message) implements HeadEvent {}

    /** A child daemon's link closed, or it could not be started: its whole subtree is gone. */
    record DaemonLost(int daemonId, String reason) implements HeadEvent {}

    /** The user sent {@code signal} to the head (Ctrl-C is SIGINT). */
    record UserSignal(int signal) implements HeadEvent {}

    record TimerFired(HeadTimer timer) implements HeadEvent {}

    /** A routing child that is not a spawn child dialed the head and said hello. */
    record PeerUp(int vertex) implements HeadEvent {}

    /** A message on the routing link from {@code vertex}. */
    record FromPeer(int vertex, OverlayMessage message) implements HeadEvent {}

    /** The routing link from {@code vertex} closed. */
    record PeerLost(int vertex, String reason) implements HeadEvent {}
}
