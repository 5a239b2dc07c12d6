package org.banyan.comm;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A communicator's thread for non-blocking collectives ({@link CommNonBlocking}): started on the
 * first one, it runs them in call order; {@link #ordered} keeps a blocking collective behind them.
 */
final class CollectiveThread {
    private final String name;
    private final AtomicInteger outstanding = new AtomicInteger();
    private ExecutorService worker;
    private volatile Thread thread;

    CollectiveThread(String name) {
        this.name = name;
    }

    /** Starts {@code body} after those started before; the request is done when it is. */
    synchronized Operation submit(Engine engine, Runnable body) {
        if (worker == null) {
            worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = Thread.ofPlatform().daemon().name("comm-" + name + "-collectives").unstarted(r);
                thread = t;
                return t;
            });
        }
        Operation.Background op = new Operation.Background(engine);
        outstanding.incrementAndGet();
        worker.execute(() -> {
            try {
                body.run();
                op.complete();
            } catch (RuntimeException | Error e) {
                op.fail(e instanceof RuntimeException r ? r : new CommException(e.toString(), e));
            } finally {
                outstanding.decrementAndGet();
                engine.wakeWaiter(); // a thread waiting for it on the sockets would not see it for a while
            }
        });
        return op;
    }

    /**
     * Before a blocking collective: waits (making progress) until the non-blocking ones started
     * before have ended, unless called on this thread itself, which runs them in order anyway.
     */
    void ordered(Engine engine) {
        if (outstanding.get() != 0 && Thread.currentThread() != thread) {
            engine.progressUntil(() -> outstanding.get() == 0);
        }
    }

    synchronized void close() {
        if (worker != null) {
            worker.shutdown();
        }
    }
}
