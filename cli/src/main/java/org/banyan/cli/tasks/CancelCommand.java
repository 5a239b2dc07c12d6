package org.banyan.cli.tasks;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.banyan.cli.options.UsageException;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;

/**
 * {@code banyan cancel}: ends tasks of a DVM, whoever submitted them: queued ones never start,
 * running ones get SIGTERM and, after the grace, SIGKILL. Returns once the DVM has them all
 * final, so nothing of them runs when it returns.
 */
public final class CancelCommand {
    static final String HELP = """
            Usage: banyan cancel [--dvm FILE] (--all | ID...)

            Cancel tasks of a DVM (ids as printed by banyan submit --detach: 7, 3-9, 3-9,12), or
            every unfinished one with --all; returns when they are all over. Exit status 2 for
            bad input or an unknown id.
            """;

    private final Map<String, String> environment;

    public CancelCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    public int run(List<String> args) throws UsageException {
        TaskSelection sel = TaskSelection.parse(args, environment, "cancel");
        if (sel.help()) {
            System.out.print(HELP);
            return 0;
        }
        if (sel.all() == !sel.ids().isEmpty()) {
            throw new UsageException("give the ids of the tasks to cancel, or --all (not both)");
        }
        try (DvmClient client = DvmClient.connect(sel.dvm(), "banyan cancel")) {
            List<Integer> known = sel.watch(client, "cancel");
            if (known == null) {
                return 2;
            }
            client.cancel(known);
            java.util.Set<Integer> open = new java.util.HashSet<>(known);
            while (!open.isEmpty()) {
                for (ClientMessage.TaskUpdate u : client.updates()) {
                    if (u.state().isFinal()) {
                        open.remove(u.taskId());
                    }
                }
            }
            System.err.println("banyan cancel: " + known.size() + " task" + (known.size() == 1 ? "" : "s") + " over"
                    + (known.isEmpty() ? "" : " (" + TaskIds.format(known) + ")"));
            return 0;
        } catch (DvmClient.Unreachable e) {
            System.err.println("banyan cancel: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println(DvmClient.lost("banyan cancel", e));
            return 1;
        }
    }
}
