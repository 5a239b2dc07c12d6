package org.banyan.cli.dvm;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.banyan.cli.options.LocalHost;
import org.banyan.cli.options.OpenFileLimit;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.SlurmAllocation;
import org.banyan.cli.options.UsageException;
import org.banyan.cli.run.DaemonOptions;
import org.banyan.cli.run.RunArguments;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;
import org.banyan.runtime.dvm.DvmHead;
import org.banyan.runtime.dvm.DvmWarmUp;
import org.banyan.runtime.launch.DaemonCommand;

/**
 * {@code banyan dvm start|status|stop}: a persistent DVM (PRRTE's {@code prte}, ORTE's
 * {@code orte-dvm}). {@code start} validates its options, starts the DVM's head as a process of
 * its own, detached from the terminal ({@code setsid}, output to the log next to the URI file),
 * and returns once every daemon is up and the URI file is written; or, when the head fails,
 * with its reason and nothing left running. {@code serve} is what that process runs.
 */
public final class DvmCommand {
    /** Extra time over the daemons' start timeout before {@code start} gives up on its head. */
    private static final long START_SLACK_MILLIS = 10_000;

    private final Map<String, String> environment;
    private final Path cwd;

    public DvmCommand(Map<String, String> environment, Path cwd) {
        this.environment = environment;
        this.cwd = cwd;
    }

    /** Every option of {@code dvm start} (and {@code serve}), declared once ({@link StartArguments}). */
    public static final OptionTable<StartArguments> START_OPTIONS = StartArguments.OPTIONS;

    /** Options of {@code status} and {@code stop}. */
    static final OptionTable<DvmFiles[]> CONTACT_OPTIONS = new OptionTable<DvmFiles[]>()
            // --uri-file is what dvm start names it: 'dvm stop --uri-file F' was refused after 'dvm start --uri-file F'
            .value("DVM", List.of("--dvm"), List.of("--uri-file"), "FILE", "the DVM's URI file (default $BANYAN_DVM, else ~/.banyan/dvm.uri)",
                    (a, v) -> a[0] = new DvmFiles(Path.of(v).toAbsolutePath()));

    static final String HELP = """
            Usage: banyan dvm start [OPTIONS]     start a persistent DVM and return once it is up
                   banyan dvm status [--dvm FILE] list its hosts, slots in use, jobs and queue
                   banyan dvm submit --nodes N|MIN:MAX ... PROGRAM
                                                  queue a job for whole hosts (see dvm submit --help)
                   banyan dvm stop [--dvm FILE]   end it: every job, every daemon

            A DVM holds daemons on its hosts (the same as banyan run's, started along a tree)
            between jobs: 'banyan run --dvm FILE ...' then starts no daemon. Only users who can
            read the secret file next to the URI file may use it.

            Options of start:
            %s""".formatted(START_OPTIONS.help());

    public int run(List<String> args) throws UsageException {
        if (args.isEmpty() || args.getFirst().equals("--help") || args.getFirst().equals("-h")) {
            System.out.print(HELP);
            return args.isEmpty() ? 2 : 0;
        }
        List<String> rest = args.subList(1, args.size());
        if ((args.getFirst().equals("start") || args.getFirst().equals("status") || args.getFirst().equals("stop"))
                && (rest.contains("--help") || rest.contains("-h"))) {
            System.out.print(HELP); // what its own error pointed to said "unknown option"
            return 0;
        }
        return switch (args.getFirst()) {
            case "start" -> start(rest);
            case "serve" -> serve(rest);
            case "status" -> status(contact(rest));
            case "stop" -> stop(contact(rest));
            case "submit" -> new DvmSubmitCommand(environment, cwd).run(rest);
            default -> throw new UsageException("unknown dvm command '" + args.getFirst()
                    + "' (commands: start, status, submit, stop)");
        };
    }

    private StartArguments parseStart(List<String> args) throws UsageException {
        StartArguments a = new StartArguments(new DaemonOptions(environment, cwd, SlurmAllocation.Slots.CPUS), defaultFiles());
        OptionParser.parse(START_OPTIONS, a, args, "banyan dvm start --help");
        if (a.elastic && slurmJob() == null) {
            throw new UsageException("--elastic gives hosts back to Slurm: run dvm start inside a Slurm job");
        }
        if (a.elastic && a.daemons.nodes() != null && !a.daemons.agent().fromSlurm()) {
            throw new UsageException("--elastic needs the DVM's hosts from the Slurm job: drop --host, --hostfile and "
                    + "--launcher");
        }
        if (a.elastic && a.warmUp > 0) {
            throw new UsageException("--warm-up: its tasks would make an elastic DVM ask Slurm for more hosts; drop it");
        }
        if (a.warmUp < 0) {
            a.warmUp = a.elastic ? 0 : DvmWarmUp.DEFAULT_PER_HOST;
        }
        if (a.probeMillis > 0 && !a.elastic) {
            throw new UsageException("--elastic-period is for an elastic DVM: add --elastic");
        }
        if (a.maxNodes > 0) {
            if (!a.elastic) {
                throw new UsageException("--max-nodes is for an elastic DVM: add --elastic");
            }
            int have = a.daemons.nodes().size();
            if (a.maxNodes < have) {
                throw new UsageException("--max-nodes " + a.maxNodes + " is less than the Slurm job's " + have + " nodes");
            }
            var tree = a.daemons.topology().over(a.maxNodes + 1);
            for (int d = have; d < a.maxNodes; d++) {
                int v = org.banyan.core.tree.Topology.vertexOfDaemon(d);
                if (tree.parent(v) != 0 || tree.children(v).length > 0) {
                    throw new UsageException("--max-nodes " + a.maxNodes + ": hosts beyond the job's must be children of "
                            + "the head with nothing below them; spawn tree " + a.daemons.topology() + " allows " + d);
                }
            }
        }
        return a;
    }

    private DvmFiles contact(List<String> args) throws UsageException {
        DvmFiles[] f = {defaultFiles()};
        OptionParser.parse(CONTACT_OPTIONS, f, args, "banyan dvm --help");
        return f[0];
    }

    private String slurmJob() {
        String id = environment.get("SLURM_JOB_ID");
        return id != null ? id : environment.get("SLURM_JOBID");
    }

    private DvmFiles defaultFiles() {
        return DvmFiles.defaultFor(environment, java.nio.file.Path.of("").toAbsolutePath());
    }

    /**
     * Whether the head that wrote a URI file still runs. Its pid alone does not say: the head
     * is a zombie for a moment after it is killed, and after a reboot (the default file in
     * ~/.banyan outlives it) the pid may be another program's; either way a new DVM was refused
     * with "a DVM is running already", while every client said it was not running.
     */
    static boolean headRuns(long pid, Path uri) {
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            String stat = Files.readString(proc.resolve("stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            if (state == 'Z' || state == 'X') {
                return false;
            }
            String command = Files.readString(proc.resolve("cmdline")).replace('\0', ' ');
            return command.contains(" dvm serve ") && command.contains(uri.toString());
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            return true; // cannot tell: as if it ran
        }
    }

    /** Validates, then starts the head detached and waits for its URI file. */
    private int start(List<String> args) throws UsageException {
        StartArguments a = parseStart(args);
        List<org.banyan.core.job.Node> hosts = a.daemons.nodes(); // every host problem is reported here, before anything starts
        String tooMany = OpenFileLimit.warning(hosts, OpenFileLimit.hard(), LocalHost::isLocal);
        if (tooMany != null) {
            System.err.println("banyan dvm: warning: " + tooMany);
        }
        DvmFiles files = a.files;
        String unsafe = files.unsafeDirectory();
        if (unsafe != null) {
            throw new UsageException(unsafe);
        }
        java.nio.channels.FileChannel turn;
        try {
            turn = org.banyan.runtime.dvm.DvmClaim.startTurn(files);
        } catch (IOException e) {
            System.err.println("banyan dvm: cannot start a DVM with " + files.uri() + ": " + e.getMessage());
            return 1;
        }
        try {
            DvmFiles.Contact running = null;
            try {
                running = files.read();
            } catch (IOException e) {
                // no contact written: a head that holds the file is starting, or stopping
            }
            boolean live = running != null && headRuns(running.pid(), files.uri());
            // a head that was just stopped holds the file until its process is gone: wait for that
            if (live || org.banyan.runtime.dvm.DvmClaim.headStaysHolding(files)) {
                turn.close();
                throw new UsageException("a DVM is running already with " + files.uri()
                        + (running != null ? " (pid " + running.pid() + ")" : " (starting)")
                        + "; stop it first ('banyan dvm stop') or choose another --uri-file");
            }
        } catch (IOException e) {
            closeQuietly(turn);
            System.err.println("banyan dvm: cannot start a DVM with " + files.uri() + ": " + e.getMessage());
            return 1;
        }
        List<String> command = new ArrayList<>(List.of("setsid"));
        command.addAll(DaemonCommand.jvmForDvm("org.banyan.cli.Main"));
        command.add("dvm");
        command.add("serve");
        command.addAll(args);
        command.add("--uri-file");
        command.add(files.uri().toString());
        Process head;
        try {
            files.makeDirectory();
            Files.deleteIfExists(files.uri());
            Files.deleteIfExists(files.log());
            // The log names clients, hosts and commands: its owner's to read, as the secret is.
            Files.createFile(files.log(), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            head = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(files.log().toFile()).start();
            org.banyan.runtime.dvm.DvmClaim.handOver(turn, files, head.toHandle());
        } catch (IOException e) {
            closeQuietly(turn);
            System.err.println("banyan dvm: cannot start the DVM's head: " + e.getMessage());
            return 1;
        }
        // Interrupted (Ctrl-C, kill, a closed terminal) before it said ready, the user does not
        // know a DVM is there: it is ended, as a failed start ends it. It used to run on.
        AtomicBoolean over = new AtomicBoolean();
        Thread interrupted = new Thread(() -> {
            if (over.compareAndSet(false, true) && head.isAlive()) {
                endHead(head);
                System.err.println("banyan dvm: interrupted before the DVM was up; ended it");
            }
        });
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            return awaitHead(head, files, a, over);
        } finally {
            if (over.compareAndSet(false, true)) {
                try {
                    Runtime.getRuntime().removeShutdownHook(interrupted);
                } catch (IllegalStateException e) {
                    // shutting down already: the hook finds the head ended, or ends nothing
                }
            }
        }
    }

    /** Waits for the head to write its contact, warms it, says it is ready; ends it if it does not come up. */
    private static int awaitHead(Process head, DvmFiles files, StartArguments a, AtomicBoolean over) {
        int warmUp = a.warmUp;
        long deadline = System.currentTimeMillis() + RunArguments.DAEMON_START_MILLIS + START_SLACK_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            try {
                DvmFiles.Contact c = files.read();
                if (c.pid() == head.pid()) {
                    try (DvmClient client = DvmClient.connect(files, "banyan dvm start")) {
                        ClientMessage.Welcome w = client.welcome();
                        if (!warmUp(client, files, warmUp, over)) {
                            endHead(head);
                            return 1;
                        }
                        if (!over.compareAndSet(false, true)) {
                            return 1; // interrupted meanwhile: the hook ends it
                        }
                        System.out.println("banyan dvm: ready, " + w.hosts() + " host(s), " + w.slots() + " slot(s); "
                                + "pid " + c.pid() + ", contact in " + files.uri());
                        if (a.dashboard) {
                            try {
                                System.out.println("banyan dvm: dashboard at " + client.dashboard(a.dashboardBind, a.dashboardPort));
                            } catch (IOException e) {
                                // the DVM serves on; the user can try again with banyan dashboard
                                System.err.println("banyan dvm: no dashboard: " + e.getMessage());
                            }
                        }
                    }
                    return 0;
                }
            } catch (IOException | DvmClient.Unreachable e) {
                // not written yet
            }
            if (!head.isAlive()) {
                System.err.println("banyan dvm: the DVM did not start: " + files.whyItEnded() + " (log: " + files.log() + ")");
                return 1;
            }
            sleep(20);
        }
        endHead(head);
        System.err.println("banyan dvm: the DVM was not up after "
                + (RunArguments.DAEMON_START_MILLIS + START_SLACK_MILLIS) / 1000 + " s; ended it. Log: " + files.log());
        return 1;
    }

    /** SIGTERM, as dvm stop would end it (its daemons and files go with it); SIGKILL after 5 s. */
    private static void endHead(Process head) {
        head.destroy();
        try {
            if (!head.waitFor(5, TimeUnit.SECONDS)) {
                head.destroyForcibly();
            }
        } catch (InterruptedException e) {
            head.destroyForcibly();
        }
    }

    /**
     * Warm-up tasks that do not all end DONE leave a working DVM, but a host may be amiss: say so.
     * False when the DVM went away meanwhile.
     */
    private static boolean warmUp(DvmClient client, DvmFiles files, int perHost, AtomicBoolean over) {
        try {
            String failures = DvmWarmUp.run(client, perHost).failures();
            if (failures != null) {
                System.err.println("banyan dvm: " + failures);
            }
            return true;
        } catch (IOException e) {
            if (over.get()) {
                return false; // interrupted: the hook ended the DVM and says so
            }
            System.err.println("banyan dvm: the DVM went away during its warm-up (" + DvmClient.why(e) + ")");
            return false;
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // nothing held any more
        }
    }

    /** The detached head itself. */
    private int serve(List<String> args) throws UsageException {
        StartArguments a = parseStart(args);
        try {
            if (!org.banyan.runtime.dvm.DvmClaim.takeForLife(a.files)) {
                System.out.println("banyan dvm: another DVM holds " + a.files.uri() + "; this one ends");
                return 1;
            }
        } catch (IOException e) {
            System.out.println("banyan dvm: cannot take " + a.files.uri() + ": " + e.getMessage());
            return 1;
        }
        HeadSettings settings = new HeadSettings(0, RunArguments.DEFAULT_GRACE_MILLIS, RunArguments.DAEMON_START_MILLIS);
        PrintStream log = System.out;
        try {
            List<org.banyan.core.job.Node> nodes = new java.util.ArrayList<>(a.daemons.nodes());
            java.util.Set<Integer> vacant = new java.util.TreeSet<>();
            while (nodes.size() < a.maxNodes) {
                vacant.add(nodes.size());
                nodes.add(new org.banyan.core.job.Node("(vacant)", nodes.getFirst().slots()));
            }
            DvmHead head = new DvmHead(nodes, settings, a.daemons.agent(), a.daemons.topology(), a.daemons.routing(), a.files,
                    log, a.gpusPerHost);
            head.quickRuns(new QuickRun(a.files));
            if (a.elastic) {
                head.elastic(slurmJob().strip(), a.probeMillis > 0 ? a.probeMillis : StartArguments.ELASTIC_PROBE_MILLIS,
                        a.files.uri().getParent(), vacant);
            }
            return head.run();
        } catch (Exception e) {
            log.println("banyan dvm: internal error: " + e);
            return 1;
        }
    }

    private int status(DvmFiles files) {
        try (DvmClient client = DvmClient.connect(files, "banyan dvm status")) {
            ClientMessage.Status s = client.status();
            System.out.println("DVM pid " + s.pid() + ", contact in " + files.uri());
            boolean gpus = s.hosts().stream().anyMatch(h -> h.gpus() > 0); // the columns only where there are GPUs
            System.out.printf("%-24s %6s %8s%s  %s%n", "host", "slots", "in use", gpus ? String.format("  %4s %8s", "gpus", "in use") : "",
                    "daemon");
            for (ClientMessage.HostStatus h : s.hosts()) {
                System.out.printf("%-24s %6d %8d%s  %s%n", h.name(), h.slots(), h.slotsInUse(),
                        gpus ? String.format("  %4d %8d", h.gpus(), h.gpusInUse()) : "", switch (h.state()) {
                            case UP -> "up";
                            case LOST -> "lost";
                            case RELEASED -> "given back";
                            case VACANT -> "vacant";
                        });
            }
            if (s.jobs().isEmpty()) {
                System.out.println("no job running");
            } else {
                System.out.printf("%-6s %6s  %s%n", "job", "ranks", "command");
                for (ClientMessage.JobStatus j : s.jobs()) {
                    System.out.printf("%-6d %6d  %s%n", j.jobId(), j.ranks(), j.command());
                }
            }
            ClientMessage.TaskCounts t = s.tasks();
            System.out.println(t.waiting() + t.running() + t.kept() == 0 ? "no task"
                    : "tasks: " + t.running() + " running, " + t.waiting() + " waiting to start, " + t.kept()
                            + " finished and kept for banyan wait");
            if (!s.queued().isEmpty()) {
                System.out.printf("%-6s %9s  %s%n", "queued", "hosts", "command");
                for (ClientMessage.QueuedStatus q : s.queued()) {
                    String hosts = q.minNodes() == q.maxNodes() ? Integer.toString(q.maxNodes()) : q.minNodes() + ":" + q.maxNodes();
                    System.out.printf("%-6d %9s  %s%n", q.queueId(), hosts, q.command());
                }
            }
            return 0;
        } catch (DvmClient.Unreachable e) {
            System.err.println("banyan dvm: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println(DvmClient.lost("banyan dvm", e));
            return 1;
        }
    }

    private int stop(DvmFiles files) {
        long pid;
        try {
            pid = files.read().pid();
        } catch (IOException e) {
            System.err.println("banyan dvm: " + e.getMessage());
            return 2;
        }
        try (DvmClient client = DvmClient.connect(files, "banyan dvm stop")) {
            client.stop(30_000);
        } catch (DvmClient.Unreachable e) {
            System.err.println("banyan dvm: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            // it closed on us: it is stopping
        }
        // Gone once it has exited, reaped or not: the JDK's onExit counts a zombie as alive and
        // polls a process that is not its child from 300 ms apart; under an init that reaps
        // slowly (a container's) every stop took 1.5-2 s more than the head's own end.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (headRuns(pid, files.uri()) && System.nanoTime() < deadline) {
            sleep(10);
        }
        if (headRuns(pid, files.uri())) {
            System.err.println("banyan dvm: the DVM (pid " + pid + ") did not stop within 30 s");
            return 1;
        }
        System.out.println("banyan dvm: stopped (pid " + pid + ")");
        return 0;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
