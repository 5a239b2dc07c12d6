package org.banyan.cli.tasks;

import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.banyan.cli.options.UsageException;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;

/**
 * {@code banyan wait}: follows tasks of a DVM, whoever submitted them (a {@code submit --detach},
 * another shell), to their end: a summary, the failures with their stderr's last lines, exit
 * status 0 only if every one is DONE. Without ids, every task not finished yet.
 */
public final class WaitCommand {
    static final String HELP = """
            Usage: banyan wait [--dvm FILE] [--quiet] [ID...]

            Wait for tasks of a DVM (ids as printed by banyan submit --detach: 7, 3-9, 3-9,12;
            none: every unfinished task), then print a summary. Exit status 0 only if every
            task is DONE; 1 if any failed or was canceled; 2 for bad input or an unknown id.
            """;

    private final Map<String, String> environment;

    public WaitCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    public int run(List<String> args) throws UsageException {
        TaskSelection sel = TaskSelection.parse(args, environment, "wait");
        if (sel.help()) {
            System.out.print(HELP);
            return 0;
        }
        if (sel.all()) {
            throw new UsageException("wait takes task ids, or none for every unfinished task (no --all)");
        }
        boolean quiet = sel.quiet();
        PrintStream err = System.err;
        long start = System.nanoTime();
        try (DvmClient client = DvmClient.connect(sel.dvm(), "banyan wait")) {
            List<Integer> known = sel.watch(client, "wait");
            if (known == null) {
                return 2;
            }
            Map<Integer, ClientMessage.TaskUpdate> last = new HashMap<>();
            int finished = 0;
            while (finished < known.size()) {
                for (ClientMessage.TaskUpdate u : client.updates()) {
                    ClientMessage.TaskUpdate before = last.put(u.taskId(), u);
                    if (u.state().isFinal() && (before == null || !before.state().isFinal())) {
                        finished++;
                    }
                }
                if (!quiet && System.console() != null) {
                    err.print("\rbanyan wait: " + finished + "/" + known.size() + " finished ");
                }
            }
            if (!quiet && System.console() != null) {
                err.println();
            }
            return summary(err, known, last, (System.nanoTime() - start) / 1e9);
        } catch (DvmClient.Unreachable e) {
            err.println("banyan wait: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println(DvmClient.lost("banyan wait", e));
            return 1;
        }
    }

    private static int summary(PrintStream err, List<Integer> ids, Map<Integer, ClientMessage.TaskUpdate> last, double secs) {
        int done = 0;
        int failed = 0;
        int canceled = 0;
        int shown = 0;
        for (int id : ids) {
            ClientMessage.TaskUpdate u = last.get(id);
            switch (u.state()) {
                case DONE -> done++;
                case CANCELED -> canceled++;
                default -> {
                    failed++;
                    if (shown++ < 10) {
                        err.println("banyan wait: task " + id + " failed (" + ExitShown.of(u.exitCode()) + ")"
                                + (u.detail().isBlank() ? "" : ":\n    " + u.detail().replace("\n", "\n    ")));
                    }
                }
            }
        }
        if (failed > 10) {
            err.println("banyan wait: ... and " + (failed - 10) + " more failed");
        }
        err.println(String.format(Locale.ROOT, "banyan wait: %d task%s: %d done, %d failed, %d canceled (waited %.2f s)",
                ids.size(), ids.size() == 1 ? "" : "s", done, failed, canceled, secs));
        return done == ids.size() ? 0 : 1;
    }
}
