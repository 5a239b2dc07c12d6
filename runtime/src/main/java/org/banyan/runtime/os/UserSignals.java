package org.banyan.runtime.os;

import java.util.function.IntConsumer;
import org.banyan.core.daemon.Signals;

/** The signals a user sends a head (Ctrl-C, kill, a closed terminal, USR1/2), handed on as numbers. */
public final class UserSignals {
    private UserSignals() {}

    @SuppressWarnings("restriction")
    public static void install(IntConsumer handler) {
        int[] signals = {Signals.SIGINT, Signals.SIGTERM, Signals.SIGHUP, Signals.SIGUSR1, Signals.SIGUSR2};
        for (int sig : signals) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(Signals.name(sig).substring(3)), s -> handler.accept(sig));
            } catch (IllegalArgumentException e) {
                // the JVM reserves this one (e.g. under -Xrs); it keeps its default action
            }
        }
    }
}
