package org.banyan.runtime.net;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.banyan.core.wire.OverlayMessage;

/**
 * A vertex's routing-overlay links that are not spawn-tree links: the one it dials to its routing
 * parent, and those its routing children dial to it (handed over by {@link ChildLinks}, which
 * accepts them). As with tree links, readers only hand messages to the {@link Listener}.
 */
public final class PeerLinks implements Closeable {
    /** Where peer traffic goes. Every method must return quickly. */
    public interface Listener {
        void up(int vertex);

        void message(int vertex, OverlayMessage message);

        void lost(int vertex, String reason);
    }

    private final int selfDaemonId;
    private final Listener listener;
    private final Map<Integer, FrameChannel> channels = new ConcurrentHashMap<>();
    private volatile boolean closing;

    /** @param selfDaemonId what this vertex says in its {@link OverlayMessage.PeerHello} (-1: the head) */
    public PeerLinks(int selfDaemonId, Listener listener) {
        this.selfDaemonId = selfDaemonId;
        this.listener = listener;
    }

    /** Opens a link to {@code vertex} at {@code contact}, in the background. */
    public void dial(int vertex, String contact) {
        Thread.ofPlatform().daemon().name("peer-" + vertex).start(() -> {
            FrameChannel c;
            try {
                c = FrameChannel.connect(contact, 10_000);
                c.send(new OverlayMessage.PeerHello(selfDaemonId));
            } catch (IOException e) {
                if (!closing) {
                    listener.lost(vertex, "cannot connect to " + contact + ": " + e.getMessage());
                }
                return;
            }
            serve(vertex, c);
        });
    }

    /** Reads a link to {@code vertex} until it closes, on the calling thread. */
    void serve(int vertex, FrameChannel c) {
        if (channels.putIfAbsent(vertex, c) != null) {
            c.close();
            return;
        }
        listener.up(vertex);
        try {
            while (true) {
                listener.message(vertex, c.receive());
            }
        } catch (IOException e) {
            if (!closing) {
                listener.lost(vertex, FrameChannel.why(e));
            }
        }
    }

    public void send(int vertex, OverlayMessage message) {
        FrameChannel c = channels.get(vertex);
        if (c != null) {
            try {
                c.send(message);
            } catch (IOException e) {
                // its reader reports the loss
            }
        }
    }

    /** The links, for counting (read-only). */
    public java.util.Collection<FrameChannel> channels() {
        return java.util.Collections.unmodifiableCollection(channels.values());
    }

    /** Stops reporting losses: the links are about to close on purpose. */
    public void closing() {
        closing = true;
    }

    @Override
    public void close() {
        closing = true;
        channels.values().forEach(FrameChannel::close);
    }
}
