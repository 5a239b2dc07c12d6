package org.banyan.runtime.dvm;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.banyan.core.wire.ClientMessage;

/**
 * The bags clients asked this DVM to run ({@link BagHost}), one per client connection, each on a
 * thread of its own: the head's loop only starts them and hands on signals. What a bag prints
 * goes to its client as {@link ClientMessage.BagOutput}; a client that goes away is treated as a
 * Ctrl-C, so the bag's tasks end with it as they do when the submitting JVM itself dies.
 */
final class HostedBags {
    private final BagHost host;
    private final Map<Integer, Signalling> running = new ConcurrentHashMap<>();
    private final AtomicInteger started = new AtomicInteger();

    /** @param host null: this DVM declines bags */
    HostedBags(BagHost host) {
        this.host = host;
    }

    /** On the loop thread: client {@code s}'s bag, what it prints and its end sent through {@code toClient} (any thread). */
    void start(int s, Consumer<ClientMessage> toClient, ClientMessage.RunBag bag) {
        if (host == null || running.containsKey(s)) {
            toClient.accept(new ClientMessage.BagEnded(ClientMessage.BagEnded.DECLINED));
            return;
        }
        Signalling signalling = new Signalling();
        running.put(s, signalling);
        Thread.ofPlatform().daemon().name("bag." + started.incrementAndGet()).start(() -> {
            int status;
            try (PrintStream err = new PrintStream(new ToClient(toClient), true, StandardCharsets.UTF_8)) {
                try {
                    status = host.run(bag.args(), bag.env(), Path.of(bag.cwd()), bag.bar(), err, signalling::handler);
                } catch (RuntimeException | Error e) {
                    err.println("banyan submit: the DVM failed running the tasks: " + e);
                    status = 1;
                }
            }
            running.remove(s);
            toClient.accept(new ClientMessage.BagEnded(status));
        });
    }

    /** On the loop thread: the user signalled the client. */
    void signal(int s, int signal) {
        Signalling signalling = running.get(s);
        if (signalling != null) {
            signalling.signal(signal);
        }
    }

    /** A signal that comes before the bag has tasks to cancel waits for its handler. */
    private static final class Signalling {
        private IntConsumer handler;
        private int pending;

        synchronized void handler(IntConsumer h) {
            handler = h;
            if (pending != 0) {
                h.accept(pending);
            }
        }

        synchronized void signal(int sig) {
            if (handler != null) {
                handler.accept(sig);
            } else {
                pending = sig;
            }
        }
    }

    /** Bytes for the client, sent as one message at each flush (a PrintStream flushes per line). */
    private static final class ToClient extends ByteArrayOutputStream {
        private final Consumer<ClientMessage> s;

        ToClient(Consumer<ClientMessage> s) {
            this.s = s;
        }

        @Override
        public synchronized void flush() {
            if (count > 0) {
                s.accept(new ClientMessage.BagOutput(toByteArray()));
                reset();
            }
        }

        @Override
        public void close() {
            flush();
        }
    }
}
