package org.banyan.runtime.os;

import java.lang.foreign.MemorySegment;
import org.banyan.pmix.CCall;

/**
 * Ends the JVM with libc's {@code _exit} once everything is flushed.
 *
 * <p>Why: at {@code System.exit} HotSpot waits up to 300 ms for threads that are inside native
 * code (a thread blocked reading the terminal for stdin forwarding, the virtual-thread pollers)
 * before it exits. For a launcher whose whole run can take tens of milliseconds that wait is the
 * largest cost. Nothing of Banyan's needs shutdown hooks: output is flushed and every process is
 * ended before this is called. The native binding is made on a background thread while the job
 * runs; if it is not ready (or under AOT training, whose cache is written by a normal exit) this
 * falls back to {@code System.exit}.
 */
public final class FastExit {
    private static volatile MemorySegment exitFunction;
    private static Thread binder;
    /** The AOT training run binds like any run (so the binding is cached) but must exit normally. */
    private static final boolean TRAINING = System.getenv("BANYAN_AOT_TRAINING") != null;

    private FastExit() {}

    /** Binds {@code _exit} in the background (the one call shape {@link CCall} shares with every other C call). */
    public static void prepare() {
        binder = Thread.ofPlatform().daemon().name("fast-exit-bind").start(() -> {
            try {
                MemorySegment fn = CCall.libc("_exit");
                CCall.prepare();
                exitFunction = fn;
            } catch (Throwable t) {
                // no native access: System.exit it is
            }
        });
    }

    public static void exit(int status) {
        System.out.flush();
        System.err.flush();
        if (binder != null) {
            try {
                // Binding takes a few ms with the AOT cache, far less than the wait it saves.
                binder.join(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        MemorySegment fn = exitFunction;
        if (fn != null && !TRAINING && CCall.supported()) {
            CCall.call(fn, status);
        }
        System.exit(status);
    }
}
