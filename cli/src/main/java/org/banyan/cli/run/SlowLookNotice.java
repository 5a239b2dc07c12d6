package org.banyan.cli.run;

import java.io.PrintStream;

/**
 * Says once on stderr that a look at a program (its file, its ELF header) has not come back
 * after {@link #AFTER_MILLIS}: on a mount that does not answer, {@code banyan run} waited
 * without a word, as mpirun does. Closed when the look returns; nothing is said then.
 */
final class SlowLookNotice implements AutoCloseable {
    static final long AFTER_MILLIS = 10_000;

    private final Thread timer;

    SlowLookNotice(String program, PrintStream err) {
        timer = Thread.ofVirtual().name("slow-look").start(() -> {
            try {
                Thread.sleep(AFTER_MILLIS);
            } catch (InterruptedException e) {
                return; // the look came back
            }
            err.println("banyan run: looking at program '" + program + "': its file system has not answered for "
                    + AFTER_MILLIS / 1000 + " s (a network mount that hangs?); still waiting, Ctrl-C ends this");
        });
    }

    @Override
    public void close() {
        timer.interrupt();
    }
}
