package org.banyan.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.TopologySpec;
import org.banyan.runtime.head.OutputOptions;
import org.banyan.runtime.launch.LaunchAgent;

/**
 * Parses and validates the arguments of {@code banyan run} with mpirun's option names.
 * Everything that can be checked before launch is checked here; a problem is one
 * {@link UsageException} naming it.
 *
 * <p>Contexts of an MPMD line are separated by a lone {@code :}. {@code -n} belongs to its
 * context; every other option applies to the whole job wherever it appears.
 */
public final class RunArguments {
    static final int DEFAULT_GRACE_MILLIS = 2000;
    static final long DAEMON_START_MILLIS = 30_000;
    static final int DEFAULT_SPAWN_DEGREE = 32;

    private final Map<String, String> environment;
    private final Path cwd;

    private final List<HostEntry> hosts = new ArrayList<>();
    private MappingPolicy mapping = MappingPolicy.SLOT;
    private boolean oversubscribe;
    private final Map<String, String> exports = new LinkedHashMap<>();
    private String wdir;
    private boolean tag;
    private boolean timestamp;
    private Path outputDir;
    private long timeoutMillis;
    private int stdinRank = 0;
    private String launcher;
    private String launchAgent;
    private int spawnDegree = DEFAULT_SPAWN_DEGREE;
    private TopologySpec routing = new TopologySpec.Radix(DEFAULT_SPAWN_DEGREE);
    private boolean routingGiven;
    private boolean staticPorts;
    private boolean fromAllocation;
    private Modex modex = Modex.LAZY;
    private boolean star;
    private boolean reportLaunch;
    /** -n of the context being parsed. */
    private int count;

    private record Context(int count, String program, List<String> args) {}

    /** Every option of {@code banyan run}, declared once: the parser, --help and README's table read this. */
    static final OptionTable<RunArguments> OPTIONS = new OptionTable<RunArguments>()
            .value("Placement", List.of("-n", "-np"), List.of("--np", "--n", "-c"), "N",
                    "number of ranks (default: one per slot)",
                    (a, v) -> a.count = HostListParser.positive(v, "-n"))
            .value("Placement", List.of("-H", "--host"), List.of("-host"), "LIST",
                    "hosts as NAME[:SLOTS],...; a name without :SLOTS adds one slot",
                    (a, v) -> a.hosts.addAll(HostListParser.parseHostOption(v)))
            .value("Placement", List.of("--hostfile", "-f"), List.of("-hostfile", "--machinefile", "-machinefile"), "FILE",
                    "hostfile: 'NAME slots=N' (Open MPI) or 'NAME:N' (Hydra) lines; # comments",
                    (a, v) -> a.hosts.addAll(HostListParser.parseHostfile(a.cwd.resolve(v))))
            .value("Placement", List.of("--map-by"), List.of("-map-by"), "slot|node",
                    "fill each host's slots first (slot, default) or round robin (node)",
                    (a, v) -> {
                        a.mapping = MappingPolicy.parse(v);
                        if (a.mapping == null) {
                            throw new UsageException("--map-by '" + v + "' is not a mapping policy (valid: slot, node)");
                        }
                    })
            .flag("Placement", List.of("--oversubscribe"), List.of("-oversubscribe"),
                    "allow more ranks than slots (default slots: this machine's cores)",
                    (a, v) -> a.oversubscribe = true)
            .value("Environment and I/O", List.of("-x"), List.of(), "VAR[=VALUE]",
                    "export VAR (with its current value, or VALUE) to every rank",
                    (a, v) -> a.export(v))
            .value("Environment and I/O", List.of("--wdir"), List.of("-wdir", "--cwd"), "DIR",
                    "working directory of the ranks",
                    (a, v) -> a.wdir = v)
            .value("Environment and I/O", List.of("--stdin"), List.of("-stdin"), "RANK|none",
                    "which rank reads banyan's stdin (default 0)",
                    (a, v) -> a.stdinRank = stdin(v))
            .flag("Environment and I/O", List.of("--tag-output"), List.of("-tag-output"),
                    "prefix each line with [JOBID,RANK]<stdout>: or <stderr>:",
                    (a, v) -> a.tag = true)
            .flag("Environment and I/O", List.of("--timestamp-output"), List.of("-timestamp-output"),
                    "prefix each line with the time it arrived",
                    (a, v) -> a.timestamp = true)
            .value("Environment and I/O", List.of("--output-filename"), List.of("-output-filename"), "DIR",
                    "write DIR/1/rank.N/stdout and stderr instead of the terminal",
                    (a, v) -> a.outputDir = a.cwd.resolve(v))
            .value("Control", List.of("--timeout"), List.of("-timeout"), "SECONDS",
                    "end the job after SECONDS (exit status 124)",
                    (a, v) -> a.timeoutMillis = seconds(v))
            .value("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--launcher"),
                    List.of("-launcher"), "L", """
                    inproc: one daemon inside banyan (default on this machine);
                    ssh (default for other hosts); slurm (default inside an
                    allocation, whose nodes are then the hosts); local: a
                    daemon process per host name, all on this machine""",
                    (a, v) -> {
                        if (!List.of("inproc", "local", "ssh", "slurm").contains(v)) {
                            throw new UsageException("--launcher '" + v + "' is not available (valid: inproc, local, ssh, slurm)");
                        }
                        a.launcher = v;
                    })
            .value("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--launch-agent"),
                    List.of("-launch-agent", "-launcher-exec"), "\"CMD\"",
                    "remote shell instead of \"ssh -x\" (implies --launcher ssh)",
                    (a, v) -> {
                        a.launchAgent = v.strip();
                        if (a.launchAgent.isEmpty()) {
                            throw new UsageException("--launch-agent needs a command, as in --launch-agent \"ssh -p 2222\"");
                        }
                    })
            .value("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--spawn-degree"),
                    List.of(), "K", """
                    children per daemon in the launch tree (default 32);
                    0 spawns along the --routing tree""",
                    (a, v) -> a.spawnDegree = spawnDegree(v))
            .value("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--routing"),
                    List.of(), "T", """
                    the overlay daemons reach each other by: radix:K
                    (default radix:32), binomial, or direct (each daemon
                    linked to the head, which relays)""",
                    (a, v) -> {
                        a.routingGiven = true;
                        try {
                            a.routing = TopologySpec.parse(v);
                        } catch (IllegalArgumentException e) {
                            throw new UsageException("--routing '" + v + "': " + e.getMessage());
                        }
                    })
            .value("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--modex"),
                    List.of(), "full|lazy", """
                    full: every fence gives every daemon every key's value;
                    lazy (default): values move on a rank's first get""",
                    (a, v) -> {
                        try {
                            a.modex = Modex.parse(v);
                        } catch (IllegalArgumentException e) {
                            throw new UsageException("--modex: " + e.getMessage());
                        }
                    })
            .value("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--launch"),
                    List.of(), "tree|star", "star: the baseline, the head starts and talks to every daemon",
                    (a, v) -> a.star = switch (v) {
                        case "tree" -> false;
                        case "star" -> true;
                        default -> throw new UsageException("--launch '" + v + "' is not a launch shape (valid: tree, star)");
                    })
            .flag("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--static-ports"),
                    List.of(), """
                    in a Slurm allocation: one srun starts every daemon and
                    each finds its tree parent at a port derived from the job""",
                    (a, v) -> a.staticPorts = true)
            .flag("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--report-launch"),
                    List.of(), "print phase times and, per daemon, links and messages",
                    (a, v) -> a.reportLaunch = true);

    private static int spawnDegree(String v) throws UsageException {
        try {
            int k = Integer.parseInt(v);
            if (k >= 0) {
                return k;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--spawn-degree must be 0 (follow --routing) or a positive integer, got '" + v + "'");
    }

    RunArguments(Map<String, String> environment, Path cwd) {
        this.environment = environment;
        this.cwd = cwd;
    }

    /** Parses {@code args} (what follows {@code run}). */
    public RunRequest parse(List<String> args) throws UsageException {
        List<Context> contexts = new ArrayList<>();
        int i = 0;
        while (true) {
            count = 0;
            String program = null;
            List<String> progArgs = new ArrayList<>();
            for (; i < args.size(); i++) {
                String a = args.get(i);
                if (program != null) {
                    if (a.equals(":")) {
                        break;
                    }
                    progArgs.add(a);
                    continue;
                }
                if (a.equals(":")) {
                    throw new UsageException("':' must follow a program (MPMD syntax: -n 1 ./a : -n 3 ./b)");
                }
                if (!a.startsWith("-") || a.equals("-")) {
                    program = a;
                    continue;
                }
                String name = a;
                String inline = null;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    name = a.substring(0, eq);
                    inline = a.substring(eq + 1);
                }
                OptionTable.Option<RunArguments> option = OPTIONS.find(name);
                if (option == null) {
                    throw new UsageException("unknown option '" + a + "' (see banyan run --help)");
                }
                if (option.takesValue()) {
                    option.handler().apply(this, value(args, i, inline, name));
                } else if (inline != null) {
                    throw new UsageException("option " + name + " takes no value");
                } else {
                    option.handler().apply(this, null);
                }
                if (inline == null && option.takesValue()) {
                    i++;
                }
            }
            if (program == null) {
                throw new UsageException(contexts.isEmpty() ? "no program given (usage: banyan run [options] PROGRAM [ARGS...])"
                        : "no program after ':' (MPMD syntax: -n 1 ./a : -n 3 ./b)");
            }
            contexts.add(new Context(count, program, progArgs));
            if (i >= args.size()) {
                break;
            }
            i++; // past ':'
        }
        return build(contexts);
    }

    private static String value(List<String> args, int i, String inline, String name) throws UsageException {
        if (inline != null) {
            return inline;
        }
        if (i + 1 >= args.size()) {
            throw new UsageException("option " + name + " needs a value");
        }
        return args.get(i + 1);
    }

    private void export(String spec) throws UsageException {
        int eq = spec.indexOf('=');
        String name = eq < 0 ? spec : spec.substring(0, eq);
        if (name.isEmpty() || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new UsageException("-x '" + spec + "': '" + name + "' is not a valid environment variable name");
        }
        if (eq >= 0) {
            exports.put(name, spec.substring(eq + 1));
        } else {
            String v = environment.get(name);
            if (v == null) {
                throw new UsageException("-x " + name + ": " + name + " is not set in the environment (use -x " + name + "=VALUE)");
            }
            exports.put(name, v);
        }
    }

    private static long seconds(String text) throws UsageException {
        try {
            double s = Double.parseDouble(text);
            if (s > 0 && s < 1e9) {
                return Math.max(1, Math.round(s * 1000));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--timeout must be a positive number of seconds, got '" + text + "'");
    }

    private static int stdin(String text) throws UsageException {
        if (text.equals("none")) {
            return -1;
        }
        try {
            int r = Integer.parseInt(text);
            if (r >= 0) {
                return r;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--stdin takes a rank number or 'none', got '" + text + "'");
    }

    private RunRequest build(List<Context> contexts) throws UsageException {
        List<Node> nodes = nodes();
        int totalSlots = 0;
        for (Node n : nodes) {
            totalSlots += n.slots();
        }
        Path workdir = null;
        if (wdir != null) {
            workdir = cwd.resolve(wdir).normalize();
            if (!Files.isDirectory(workdir)) {
                throw new UsageException("--wdir '" + wdir + "' is not a directory");
            }
        }
        List<AppContext> apps = new ArrayList<>();
        for (Context c : contexts) {
            checkProgram(c.program(), workdir != null ? workdir : cwd);
            int count = c.count() > 0 ? c.count() : totalSlots;
            apps.add(new AppContext(c.program(), c.args(), count, exports, workdir == null ? null : workdir.toString()));
        }
        JobDescription job = new JobDescription(1, apps, nodes, mapping, oversubscribe, stdinRank, cwd.toString(), modex);
        if (stdinRank >= job.size()) {
            throw new UsageException("--stdin " + stdinRank + ": the job has only " + job.size() + " rank"
                    + (job.size() == 1 ? "" : "s"));
        }
        try {
            RankMap.of(job);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (outputDir != null) {
            try {
                Files.createDirectories(outputDir);
            } catch (IOException e) {
                throw new UsageException("--output-filename '" + outputDir + "': cannot create the directory ("
                        + e.getMessage() + ")");
            }
        }
        HeadSettings settings = new HeadSettings(timeoutMillis, DEFAULT_GRACE_MILLIS, DAEMON_START_MILLIS, reportLaunch);
        return new RunRequest(job, settings, new OutputOptions(tag, timestamp, outputDir), agent(), topology(),
                star && !routingGiven ? new TopologySpec.Direct() : routing);
    }

    /** The tree daemons are spawned along: the star baseline, radix:K, or the routing tree. */
    private TopologySpec topology() {
        if (star) {
            return new TopologySpec.Direct();
        }
        return spawnDegree == 0 ? routing : new TopologySpec.Radix(spawnDegree);
    }

    private LaunchAgent agent() {
        return switch (launcher) {
            case "inproc" -> new LaunchAgent.InProcess();
            case "local" -> new LaunchAgent.Local();
            case "slurm" -> staticPorts ? new LaunchAgent.SlurmStep(LaunchAgent.SlurmStep.portFor(environment),
                    environment.getOrDefault("SLURM_JOB_NODELIST", environment.get("SLURM_NODELIST"))) : new LaunchAgent.Slurm();
            default -> launchAgent != null ? LaunchAgent.parse("ssh:" + launchAgent) : LaunchAgent.parse("ssh");
        };
    }

    /**
     * The job's nodes, and the launcher when none was chosen. Hosts that all designate this
     * machine fold into one node run by an in-process daemon; otherwise each distinct name is a
     * node (its slots added up over its entries), reached over ssh unless {@code --launcher local}
     * says to start every daemon on this machine.
     */
    private List<Node> nodes() throws UsageException {
        String self = LocalHost.hostname();
        if (launchAgent != null && launcher == null) {
            launcher = "ssh";
        }
        if (launchAgent != null && !launcher.equals("ssh")) {
            throw new UsageException("--launch-agent is the remote shell of --launcher ssh, not of --launcher " + launcher);
        }
        if (hosts.isEmpty() && (launcher == null || launcher.equals("slurm"))) {
            // Inside an allocation the allocation is the host list, and srun starts the daemons.
            List<HostEntry> allocation = SlurmAllocation.hosts(environment);
            if (!allocation.isEmpty()) {
                fromAllocation = true;
                hosts.addAll(allocation);
                if (launcher == null) {
                    launcher = "slurm";
                }
            } else if ("slurm".equals(launcher)) {
                throw new UsageException("--launcher slurm needs a Slurm allocation (SLURM_JOB_NODELIST is not set)");
            }
        }
        if (hosts.isEmpty()) {
            if (launcher == null) {
                launcher = "inproc";
            }
            return List.of(new Node(self, Runtime.getRuntime().availableProcessors()));
        }
        Map<String, Integer> slots = new LinkedHashMap<>();
        boolean allLocal = true;
        for (HostEntry h : hosts) {
            slots.merge(h.name(), h.slots() > 0 ? h.slots() : 1, Integer::sum);
            if (allLocal && !launcherIsLocal() && !LocalHost.isLocal(h.name())) {
                allLocal = false;
            }
        }
        if (launcher == null) {
            launcher = allLocal ? "inproc" : "ssh";
        }
        if (launcher.equals("inproc")) {
            int total = 0;
            for (HostEntry h : hosts) {
                if (!LocalHost.isLocal(h.name())) {
                    String where = h.origin().equals("--host") ? "--host" : "hostfile " + h.origin();
                    throw new UsageException(where + ": host '" + h.name() + "' is not this machine (" + self
                            + "); --launcher inproc runs on this machine only");
                }
                total += h.slots() > 0 ? h.slots() : 1;
            }
            return List.of(new Node(hosts.getFirst().name(), total));
        }
        if (staticPorts && !(launcher.equals("slurm") && fromAllocation)) {
            throw new UsageException("--static-ports starts the daemons of a Slurm allocation's own nodes: run it "
                    + "inside salloc or sbatch, without --host, --hostfile or another --launcher");
        }
        if (launcher.equals("ssh") || launcher.equals("slurm")) {
            for (HostEntry h : hosts) {
                if (!LocalHost.resolves(h.name())) {
                    String where = h.origin().equals("--host") ? "--host" : "hostfile " + h.origin();
                    throw new UsageException(where + ": unknown host '" + h.name() + "' (the name does not resolve)");
                }
            }
        }
        List<Node> out = new ArrayList<>();
        for (Map.Entry<String, Integer> e : slots.entrySet()) {
            out.add(new Node(e.getKey(), e.getValue()));
        }
        return out;
    }

    private boolean launcherIsLocal() {
        return "local".equals(launcher);
    }

    /** The program must exist and be executable where the daemon will start it. */
    private void checkProgram(String program, Path dir) throws UsageException {
        if (program.contains("/")) {
            Path p = dir.resolve(program);
            if (!Files.exists(p)) {
                throw new UsageException("program '" + program + "' does not exist");
            }
            if (Files.isDirectory(p) || !Files.isExecutable(p)) {
                throw new UsageException("program '" + program + "' is not executable");
            }
            return;
        }
        String path = environment.getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String entry : path.split(File.pathSeparator)) {
            Path p = (entry.isEmpty() ? dir : dir.resolve(entry)).resolve(program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return;
            }
        }
        throw new UsageException("program '" + program + "' not found in PATH");
    }
}
