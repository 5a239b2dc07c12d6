package org.banyan.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * {@code banyan cancel}: ends tasks of a DVM, whoever submitted them: queued ones never start,
 * running ones get SIGTERM and, after the grace, SIGKILL. Returns once the DVM has them all
 * final, so nothing of them runs when it returns.
 */
final class CancelCommand {
    static final String HELP = """
            Usage: banyan cancel [--dvm FILE] (--all | ID...)

            Cancel tasks of a DVM (ids as printed by banyan submit --detach: 7, 3-9, 3-9,12), or
            every unfinished one with --all; returns when they are all over. Exit status 2 for
            bad input or an unknown id.
            """;

    private final Map<String, String> environment;

    CancelCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    int run(List<String> args) throws UsageException {
        DvmFiles dvm = null;
        boolean all = false;
        List<String> words = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--help", "-h" -> {
                    System.out.print(HELP);
                    return 0;
                }
                case "--dvm" -> {
                    if (i + 1 == args.size()) {
                        throw new UsageException("option --dvm needs a value");
                    }
                    dvm = new DvmFiles(Path.of(args.get(++i)).toAbsolutePath());
                }
                case "--all" -> all = true;
                default -> {
                    if (a.startsWith("--")) {
                        throw new UsageException("unknown option '" + a + "' (see banyan cancel --help)");
                    }
                    words.add(a);
                }
            }
        }
        List<Integer> asked = TaskIds.parse(words);
        if (all == !asked.isEmpty()) {
            throw new UsageException("give the ids of the tasks to cancel, or --all (not both)");
        }
        if (dvm == null) {
            dvm = DvmFiles.defaultFor(environment.getOrDefault("HOME", System.getProperty("user.home")));
        }
        try (DvmClient client = DvmClient.connect(dvm, "banyan cancel")) {
            client.send(new ClientMessage.WatchTasks(asked));
            List<Integer> known;
            while (true) {
                if (client.receive() instanceof ClientMessage.TasksAccepted(List<Integer> ids)) {
                    known = ids;
                    break;
                }
            }
            if (known.size() < asked.size()) {
                List<Integer> unknown = new ArrayList<>(asked);
                unknown.removeAll(known);
                System.err.println("banyan cancel: no task " + TaskIds.format(unknown) + " in this DVM");
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
            System.err.println("banyan cancel: lost the DVM: " + e.getMessage());
            return 1;
        }
    }
}
