package org.banyan.runtime.dvm;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Runs {@code banyan submit}'s bag in the DVM's own JVM ({@link org.banyan.core.wire.ClientMessage.RunBag}):
 * its session and task manager live here, where the JIT is warm from earlier bags, instead of in
 * a new client JVM that compiles its per-task code while the bag's clock runs. Given by the
 * command layer, which owns the submit logic.
 */
@FunctionalInterface
public interface BagHost {
    /**
     * Runs the bag and blocks until it is over.
     *
     * @param args    {@code banyan submit}'s arguments, relative paths taken from {@code cwd}
     * @param env     the submitter's values of the variables its {@code -x VAR} names
     * @param bar     whether to draw a progress bar on {@code err}
     * @param err     what the user sees
     * @param signals takes the handler for the user's signals, which arrive from the client
     * @return the exit status for the client
     */
    int run(List<String> args, java.util.Map<String, String> env, Path cwd, boolean bar, PrintStream err,
            Consumer<IntConsumer> signals);
}
