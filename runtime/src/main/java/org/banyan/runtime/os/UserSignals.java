package org.banyan.runtime.os;

import java.util.function.IntConsumer;
import org.banyan.core.daemon.Signals;

/** The signals a user sends a head (Ctrl-C, kill, a closed terminal, USR1/2), handed on as numbers. */
public final class UserSignals {
    private UserSignals() {}

    public static void install(IntConsumer handler) {
        handle(handler, Signals.SIGINT, Signals.SIGTERM, Signals.SIGHUP, Signals.SIGUSR1, Signals.SIGUSR2);
    }

    /**
     * A daemon's signals. SIGINT, SIGTERM and SIGHUP go to {@code ending}: a signal to the
     * launcher's process group (Ctrl-C with local daemons, {@code timeout(1)}, {@code kill -- -PGID})
     * or Slurm's to a step's processes used to end the daemon at once, and its rank guard then
     * killed the ranks without the grace their SIGTERM handlers need. SIGUSR1 and SIGUSR2 are
     * ignored: they are for the ranks (the head passes them on, and Slurm's {@code --signal}
     * reaches them itself), and their default action ended the daemon.
     */
    public static void installDaemon(IntConsumer ending) {
        handle(ending, Signals.SIGINT, Signals.SIGTERM, Signals.SIGHUP);
        handle(sig -> { }, Signals.SIGUSR1, Signals.SIGUSR2);
    }

    /**
     * Ctrl-Z and the shell's resumption (SIGTSTP, SIGCONT) for a process whose ranks run on this
     * host in process groups of their own: the handler must pass them on and then stop this
     * process itself, which SIGTSTP no longer does once handled.
     */
    public static void installJobControl(IntConsumer handler) {
        handle(handler, Signals.SIGTSTP, Signals.SIGCONT);
    }

    @SuppressWarnings("restriction")
    private static void handle(IntConsumer handler, int... signals) {
        for (int sig : signals) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(Signals.name(sig).substring(3)), s -> handler.accept(sig));
            } catch (IllegalArgumentException e) {
                // the JVM reserves this one (e.g. under -Xrs); it keeps its default action
            }
        }
    }
}
