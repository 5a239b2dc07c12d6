package org.banyan.cli.dvm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.cli.run.RunArguments;
import org.banyan.cli.run.RunRequest;
import org.banyan.core.job.AppContext;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * {@code banyan dvm submit}: queues a job for the DVM's resource manager, which runs it on whole
 * hosts when its turn comes (Slurm's {@code srun -N}, Flux's {@code flux run -N}, inside a DVM).
 * Its own options come first; the rest are {@code banyan run}'s (output, stdin, timeout, the
 * program), with the job's size left to the resource manager.
 */
public final class DvmSubmitCommand {
    /** The backfill estimate when none is given: an hour, as many batch systems assume. */
    static final long DEFAULT_TIME_MILLIS = 3_600_000;
    /** How long an expansion's new ranks have to join: their JVMs' start, with room for a busy host. */
    static final long DEFAULT_RESIZE_TIMEOUT_MILLIS = 60_000;

    static final class Arguments {
        int minNodes;
        int maxNodes;
        int preferredNodes;
        int factor = 2;
        long timeMillis = DEFAULT_TIME_MILLIS;
        int ranksPerNode = 1;
        long resizeTimeoutMillis = DEFAULT_RESIZE_TIMEOUT_MILLIS;
        boolean warm;
        String dvm;
    }

    static final OptionTable<Arguments> OPTIONS = new OptionTable<Arguments>()
            .value("Queue", List.of("--nodes", "-N"), List.of(), "N|MIN:MAX",
                    "hosts the job runs on: N for a rigid job; MIN:MAX for a malleable one, started at\n"
                            + "MAX and resized between MIN and MAX by the resource manager",
                    (a, v) -> nodes(a, v))
            .value("Queue", List.of("--preferred"), List.of(), "P",
                    "the size a malleable job runs best at (the policy moves it there)",
                    (a, v) -> a.preferredNodes = positive("--preferred", v))
            .value("Queue", List.of("--factor"), List.of(), "F",
                    "the step between a malleable job's sizes: 2 doubles and halves (default), 1 any size",
                    (a, v) -> a.factor = positive("--factor", v))
            .value("Queue", List.of("--time", "-t"), List.of(), "T",
                    "the job's expected run time at MAX hosts, for backfill: seconds, M:SS or H:MM:SS\n"
                            + "(default 1:00:00; --timeout ends a job, this does not)",
                    (a, v) -> a.timeMillis = duration("--time", v))
            .value("Queue", List.of("--ranks-per-node"), List.of(), "R", "ranks on each of its hosts (default 1)",
                    (a, v) -> a.ranksPerNode = positive("--ranks-per-node", v))
            .value("Queue", List.of("--resize-timeout"), List.of(), "T",
                    "how long an expansion's new ranks have to join (seconds, M:SS or H:MM:SS; default\n"
                            + "60): after that the expansion is abandoned and the job goes on at its size",
                    (a, v) -> a.resizeTimeoutMillis = duration("--resize-timeout", v))
            .flag("Queue", List.of("--warm"), List.of(),
                    "a Java program's JVMs kept started and waiting on the hosts it could grow onto,\n"
                            + "so that its expansions take them instead of starting JVMs (docs/malleability.md)",
                    (a, v) -> a.warm = true)
            .value("Queue", List.of("--dvm"), List.of(), "FILE", "the DVM's URI file (default $BANYAN_DVM, else ~/.banyan/dvm.uri)",
                    (a, v) -> a.dvm = v);

    static final String HELP = """
            Usage: banyan dvm submit --nodes N|MIN:MAX [QUEUE OPTIONS] [RUN OPTIONS] PROGRAM [ARGS...]

            Queues a job for the DVM's resource manager: it starts on whole hosts when its turn
            comes (first come, first served with EASY backfill), its output comes here as with
            'banyan run', and the command's exit status is the job's. Leaving before it starts
            takes it out of the queue. Tasks and 'banyan run --dvm' jobs do not use the hosts it
            holds. Queue options come first; RUN OPTIONS are banyan run's (output, --stdin,
            --timeout, ...), without -n and host options: the size is the queue's.

            %s""".formatted(OPTIONS.help());

    private final Map<String, String> environment;
    private final Path cwd;

    DvmSubmitCommand(Map<String, String> environment, Path cwd) {
        this.environment = environment;
        this.cwd = cwd;
    }

    int run(List<String> args) throws UsageException {
        if (args.isEmpty() || args.getFirst().equals("--help") || args.getFirst().equals("-h")) {
            System.out.print(HELP);
            return args.isEmpty() ? 2 : 0;
        }
        Arguments a = new Arguments();
        int programAt = OptionParser.parseLeading(OPTIONS, a, args);
        if (a.maxNodes == 0) {
            throw new UsageException("dvm submit needs --nodes N or --nodes MIN:MAX");
        }
        if (a.preferredNodes != 0 && (a.preferredNodes < a.minNodes || a.preferredNodes > a.maxNodes)) {
            throw new UsageException("--preferred " + a.preferredNodes + " is outside --nodes " + a.minNodes + ":" + a.maxNodes);
        }
        if (a.factor > 1 && !org.banyan.rm.JobRequest.reachable(a.minNodes, a.maxNodes, a.factor)) {
            throw new UsageException("--nodes " + a.minNodes + ":" + a.maxNodes + " with --factor " + a.factor + ": "
                    + a.maxNodes + " is not " + a.minNodes + " times a power of " + a.factor + " (use --factor 1 for any size)");
        }
        if (a.preferredNodes != 0 && a.factor > 1 && !org.banyan.rm.JobRequest.reachable(a.minNodes, a.preferredNodes, a.factor)) {
            throw new UsageException("--preferred " + a.preferredNodes + " is not " + a.minNodes + " times a power of " + a.factor);
        }
        List<String> rest = new ArrayList<>(args.subList(programAt, args.size()));
        boolean dvmAmongRunOptions = rest.stream().anyMatch(r -> r.equals("--dvm") || r.startsWith("--dvm="));
        if (!dvmAmongRunOptions) {
            rest.addAll(0, List.of("--dvm", a.dvm != null ? a.dvm : DvmFiles.defaultFor(environment,
                    java.nio.file.Path.of("").toAbsolutePath()).uri().toString()));
        }
        RunRequest request = new RunArguments(environment, cwd).parse(rest);
        ClientMessage.RunJob job = request.dvmJob();
        if (job.apps().size() != 1) {
            throw new UsageException("dvm submit runs one program (no ':' contexts)");
        }
        if (job.apps().stream().mapToInt(AppContext::count).sum() != 0) {
            throw new UsageException("dvm submit sizes a job by --nodes and --ranks-per-node: drop -n");
        }
        ClientMessage.QueueJob queued = new ClientMessage.QueueJob(a.minNodes, a.maxNodes, a.preferredNodes, a.factor,
                a.timeMillis, a.ranksPerNode, a.resizeTimeoutMillis, job, a.warm);
        try (DvmClient client = DvmClient.connect(request.dvm(), "banyan dvm submit")) {
            return client.queue(queued, request.output());
        } catch (DvmClient.Unreachable e) {
            System.err.println("banyan dvm submit: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println(DvmClient.lost("banyan dvm submit", e));
            return 1;
        }
    }

    private static void nodes(Arguments a, String v) throws UsageException {
        int colon = v.indexOf(':');
        if (colon < 0) {
            a.minNodes = a.maxNodes = positive("--nodes", v);
        } else {
            a.minNodes = positive("--nodes", v.substring(0, colon));
            a.maxNodes = positive("--nodes", v.substring(colon + 1));
            if (a.maxNodes < a.minNodes) {
                throw new UsageException("--nodes " + v + ": the maximum is below the minimum");
            }
        }
    }

    private static int positive(String option, String v) throws UsageException {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a whole number of at least 1, got '" + v + "'");
    }

    /** Seconds, M:SS or H:MM:SS, in milliseconds. */
    public static long duration(String option, String v) throws UsageException {
        String[] parts = v.split(":", -1);
        if (parts.length > 3) {
            throw new UsageException(option + " takes seconds, M:SS or H:MM:SS, got '" + v + "'");
        }
        long seconds = 0;
        try {
            for (String p : parts) {
                int n = Integer.parseInt(p);
                if (n < 0) {
                    throw new NumberFormatException();
                }
                seconds = seconds * 60 + n;
            }
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes seconds, M:SS or H:MM:SS, got '" + v + "'");
        }
        if (seconds < 1) {
            throw new UsageException(option + " must be at least one second, got '" + v + "'");
        }
        return seconds * 1000;
    }
}
