package org.banyan.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.banyan.core.daemon.Signals;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmWarmUp;
import org.banyan.runtime.os.FileTree;

/**
 * {@code dvm start}'s warm-up: {@link DvmWarmUp}'s count of {@code /bin/true} tasks, run as a bag
 * in the DVM's JVM ({@link ClientMessage.RunBag}), so that what a user's first {@code banyan submit}
 * runs there (the session, the task manager, the profile) is compiled too, besides the task path
 * every host's daemon takes. The tasks run in {@code /tmp} with their output going to
 * {@code /dev/null}, so no host keeps anything; the session is a temporary directory here, removed
 * after.
 */
final class BagWarmUp {
    private BagWarmUp() {}

    /**
     * Runs the warm-up and says what went wrong, or null when every task ended DONE. After
     * {@link DvmWarmUp#TIMEOUT_MILLIS} what is left is canceled: a DVM that warms slowly still works.
     *
     * @throws IOException when the DVM went away
     */
    static String run(DvmClient client, Path scratchParent, int perHost) throws IOException {
        int n = DvmWarmUp.count(client.welcome().hosts(), perHost);
        if (n == 0) {
            return null;
        }
        Path dir = Files.createTempDirectory(scratchParent, "warm-up.");
        try {
            Path tasks = dir.resolve("tasks.jsonl");
            String line = "{\"executable\": \"/bin/true\", \"sandbox\": \"/tmp\", \"stdout\": \"/dev/null\", "
                    + "\"stderr\": \"/dev/null\"}\n";
            Files.writeString(tasks, line.repeat(n));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            AtomicReference<IntConsumer> cancel = new AtomicReference<>();
            Thread timer = Thread.ofPlatform().daemon().name("warm-up-timeout").start(() -> {
                try {
                    Thread.sleep(DvmWarmUp.TIMEOUT_MILLIS);
                    IntConsumer c = cancel.get();
                    if (c != null) {
                        c.accept(Signals.SIGINT);
                    }
                } catch (InterruptedException e) {
                    // finished first
                }
            });
            int status;
            try {
                status = client.runBag(new ClientMessage.RunBag(dir.toString(), false, List.of("--quiet", "--session",
                        dir.resolve("session").toString(), "--tasks", tasks.toString()), java.util.Map.of()), out, cancel::set);
            } finally {
                timer.interrupt();
            }
            if (status == 0) {
                return null;
            }
            List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
            // the first failure, with its reason, and the counts
            return "warm-up tasks (/bin/true) did not all end DONE: " + (lines.isEmpty() ? "status " + status
                    : lines.size() == 1 ? lines.getFirst() : lines.getFirst() + "; " + lines.getLast());
        } finally {
            FileTree.delete(dir);
        }
    }
}
