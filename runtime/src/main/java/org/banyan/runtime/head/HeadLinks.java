package org.banyan.runtime.head;

import java.io.IOException;
import java.util.function.Consumer;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.net.ChildLinks;
import org.banyan.runtime.net.PeerLinks;

/**
 * The head's links in the overlay, for a run's head and a DVM's alike: its children in the
 * spawn tree (started by the launch agent) and the routing children that dial it. What arrives
 * on them becomes a {@link HeadEvent} for the head's loop.
 */
public final class HeadLinks {
    private final PeerLinks peers;
    private final ChildLinks children;

    private HeadLinks(PeerLinks peers, ChildLinks children) {
        this.peers = peers;
        this.children = children;
    }

    public static HeadLinks open(LaunchAgent agent, ChildStarter starter, Consumer<HeadEvent> events) throws IOException {
        PeerLinks peers = new PeerLinks(-1, new PeerLinks.Listener() {
            @Override
            public void up(int vertex) {
                events.accept(new HeadEvent.PeerUp(vertex));
            }

            @Override
            public void message(int vertex, OverlayMessage message) {
                events.accept(new HeadEvent.FromPeer(vertex, message));
            }

            @Override
            public void lost(int vertex, String reason) {
                events.accept(new HeadEvent.PeerLost(vertex, reason));
            }
        });
        ChildLinks children = ChildLinks.open(agent, starter, new ChildLinks.Listener() {
            @Override
            public void message(int childId, OverlayMessage message) {
                events.accept(new HeadEvent.FromDaemon(childId, message));
            }

            @Override
            public void lost(int childId, String reason) {
                events.accept(new HeadEvent.DaemonLost(childId, reason));
            }
        }, peers);
        return new HeadLinks(peers, children);
    }

    public void toDaemon(int daemonId, OverlayMessage m) {
        children.send(daemonId, m);
    }

    public void toPeer(int vertex, OverlayMessage m) {
        peers.send(vertex, m);
    }

    public void spawn(int daemonId, String host) {
        children.spawn(daemonId, host);
    }

    /** Where a daemon on {@code host} reaches the head. */
    public String addressFor(String host) {
        return children.addressFor(host);
    }

    /** Closes every link (the daemons see their parent go) and waits up to 5 s for what was started to end. */
    public void close() {
        peers.closing();
        children.closing();
        children.awaitOrKill(5000);
        children.close();
        peers.close();
    }
}
