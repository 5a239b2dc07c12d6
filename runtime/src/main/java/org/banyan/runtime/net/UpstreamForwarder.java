package org.banyan.runtime.net;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.banyan.core.wire.OverlayMessage;

/**
 * Everything a daemon sends to its parent, in order, from one thread. Output chunks that queue up
 * while the link is busy (from local ranks or relayed from children) leave as one
 * {@link OverlayMessage.OutputBatch}: batching without a timer, so a lone line is not delayed.
 * The queue is bounded: when the parent reads slowly, ranks writing output block, as they
 * would on a pipe.
 *
 * <p>Over an in-memory link (a daemon on a thread of its head's JVM) there is no thread: a send
 * never blocks there, so each message goes on the caller's thread. The thread's hand-off was
 * a wake-up per message, most of one per task in a stream of short tasks.
 */
public final class UpstreamForwarder {
    /** Largest batch, in bytes of output. */
    static final int MAX_BATCH_BYTES = 1 << 18;
    private static final OverlayMessage STOP = new OverlayMessage.Shutdown();

    private final FrameChannel parent;
    private final BlockingQueue<OverlayMessage> queue = new ArrayBlockingQueue<>(4096);
    /** Null over an in-memory link. */
    private final Thread thread;
    private volatile boolean broken;

    public UpstreamForwarder(FrameChannel parent) {
        this.parent = parent;
        this.thread = parent.inMemory() ? null : Thread.ofPlatform().daemon().name("to-parent").start(this::run);
    }

    /** Queues a message for the parent; blocks while the queue is full. */
    public void send(OverlayMessage m) {
        if (broken) {
            return;
        }
        if (thread == null) {
            try {
                parent.send(m);
            } catch (IOException e) {
                broken = true; // the parent is gone: its reader reports that
            }
            return;
        }
        try {
            queue.put(m);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<OverlayMessage> drained = new ArrayList<>();
        List<OverlayMessage.Output> batch = new ArrayList<>();
        try {
            while (true) {
                drained.add(queue.take());
                queue.drainTo(drained);
                int bytes = 0;
                for (OverlayMessage m : drained) {
                    if (m == STOP) {
                        flush(batch);
                        return;
                    }
                    List<OverlayMessage.Output> chunks = switch (m) {
                        case OverlayMessage.Output o -> List.of(o);
                        case OverlayMessage.OutputBatch b -> b.chunks();
                        default -> null;
                    };
                    if (chunks == null) {
                        flush(batch);
                        bytes = 0;
                        parent.send(m);
                        continue;
                    }
                    for (OverlayMessage.Output o : chunks) {
                        if (bytes + o.data().length > MAX_BATCH_BYTES) {
                            flush(batch);
                            bytes = 0;
                        }
                        batch.add(o);
                        bytes += o.data().length;
                    }
                }
                flush(batch);
                drained.clear();
            }
        } catch (IOException e) {
            // the parent is gone: its reader reports that; what is queued is dropped
            broken = true;
            queue.clear();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void flush(List<OverlayMessage.Output> batch) throws IOException {
        if (batch.size() == 1) {
            parent.send(batch.getFirst());
        } else if (!batch.isEmpty()) {
            parent.send(new OverlayMessage.OutputBatch(batch));
        }
        batch.clear();
    }

    /** Sends what is queued, then stops; waits up to {@code millis} for that. */
    public void finish(long millis) {
        if (thread == null) {
            return;
        }
        if (!broken) {
            queue.offer(STOP);
        }
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
