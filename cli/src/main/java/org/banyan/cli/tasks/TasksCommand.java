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
 * {@code banyan tasks}: what {@code squeue} and {@code flux jobs} are to their users, for a DVM's
 * tasks: one line per task with its state now, how long it has been in it, and a failure's exit
 * code and first line of detail. It asks as {@code banyan wait} does and returns at once.
 */
public final class TasksCommand {
    static final String HELP = """
            Usage: banyan tasks [--dvm FILE] [ID...]

            List tasks of a DVM with their state: the ids given (7, 3-9, 3-9,12; finished
            ones too, as long as the DVM keeps them), or none for every unfinished task of
            every client. One line per task on stdout: ID, STATE, how long it has been in
            that state, and for a failed task its exit code and the first line of why.
            Exit status 0; 2 for bad input or an unknown id.
            """;

    private final Map<String, String> environment;

    public TasksCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    public int run(List<String> args) throws UsageException {
        TaskSelection sel = TaskSelection.parse(args, environment, "tasks");
        if (sel.help()) {
            System.out.print(HELP);
            return 0;
        }
        if (sel.all() || sel.quiet()) {
            throw new UsageException("tasks takes task ids, or none for every unfinished task (no --all or --quiet)");
        }
        try (DvmClient client = DvmClient.connect(sel.dvm(), "banyan tasks")) {
            List<Integer> known = sel.watch(client, "tasks");
            if (known == null) {
                return 2;
            }
            // the DVM sends each task's state now, before any later change
            Map<Integer, ClientMessage.TaskUpdate> now = new HashMap<>();
            while (now.size() < known.size()) {
                for (ClientMessage.TaskUpdate u : client.updates()) {
                    now.putIfAbsent(u.taskId(), u);
                }
            }
            print(System.out, known.stream().sorted().map(now::get).toList(), System.currentTimeMillis() * 1000);
            return 0;
        } catch (DvmClient.Unreachable e) {
            System.err.println("banyan tasks: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println(DvmClient.lost("banyan tasks", e));
            return 1;
        }
    }

    /** The table, a header then a line per task; {@code nowMicros} on the DVM's clock (the same host's, or close). */
    static void print(PrintStream out, List<ClientMessage.TaskUpdate> tasks, long nowMicros) {
        out.println(String.format(Locale.ROOT, "%8s  %-28s %9s %5s  %s", "ID", "STATE", "FOR", "EXIT", "DETAIL"));
        for (ClientMessage.TaskUpdate u : tasks) {
            boolean failed = u.state() == org.banyan.core.pilot.TaskState.FAILED;
            String detail = u.detail() == null ? "" : u.detail().strip();
            int nl = detail.indexOf('\n');
            out.println(String.format(Locale.ROOT, "%8d  %-28s %9s %5s  %s", u.taskId(), u.state(),
                    u.timeMicros() == 0 ? "-" : duration(Math.max(0, nowMicros - u.timeMicros())), failed ? Integer.toString(u.exitCode()) : "",
                    nl < 0 ? detail : detail.substring(0, nl) + " ...").stripTrailing());
        }
    }

    /** {@code 0.4s}, {@code 12s}, {@code 3m05s}, {@code 2h07m}: squeue's TIME, shorter. */
    static String duration(long micros) {
        long s = micros / 1_000_000;
        if (s < 10) {
            return String.format(Locale.ROOT, "%.1fs", micros / 1e6);
        }
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }
}
