package org.banyan.cli.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.banyan.cli.options.HostEntry;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.LocalHost;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.SlurmAllocation;
import org.banyan.cli.options.UsageException;
import org.banyan.core.job.Node;
import org.banyan.core.tree.TopologySpec;
import org.banyan.runtime.launch.LaunchAgent;

/**
 * Where daemons run and how they start, for every command that starts them ({@code banyan run},
 * {@code banyan dvm start}): the hosts (options, hostfile, or the Slurm allocation), the launch
 * agent, and the shapes of the spawn tree and of the routing overlay. Its options are declared
 * here once and added to each command's {@link OptionTable}.
 */
public final class DaemonOptions {
    static final int DEFAULT_SPAWN_DEGREE = 32;
    static final String SECTION = "Daemons (one per host, started along a tree; see docs/multihost.md)";

    private final Map<String, String> environment;
    private final Path cwd;
    private final List<HostEntry> hosts = new ArrayList<>();
    private String launcher;
    private String launchAgent;
    /** Hydra's {@code -launcher rsh}: ssh's rules, rsh for the remote shell unless --launch-agent names one. */
    private boolean rsh;
    private boolean noLocal;
    private int spawnDegree = DEFAULT_SPAWN_DEGREE;
    private TopologySpec routing = new TopologySpec.Radix(DEFAULT_SPAWN_DEGREE);
    private boolean staticPorts;
    private boolean fromAllocation;
    private boolean star;
    /** --use-hwthread-cpus: this machine's slots are its hardware threads, not its cores. */
    private boolean hwThreads;
    /** What a host of a Slurm allocation offers: its tasks ({@code banyan run}) or its CPUs (a DVM). */
    private final SlurmAllocation.Slots allocationSlots;
    /** The options given of how daemons start (not of where): they mean nothing to a DVM's job. */
    private final java.util.Set<String> startOptions = new java.util.LinkedHashSet<>();

    public DaemonOptions(Map<String, String> environment, Path cwd, SlurmAllocation.Slots allocationSlots) {
        this.environment = environment;
        this.cwd = cwd;
        this.allocationSlots = allocationSlots;
    }

    /** -H and --hostfile, in the Placement section. */
    public static <T> void declareHosts(OptionTable<T> t, Function<T, DaemonOptions> of) {
        t.value("Placement", List.of("-H", "--host"), List.of("-host", "-hosts"), "LIST",
                    "hosts as NAME[:SLOTS],...; a name without :SLOTS adds one slot",
                    (a, v) -> of.apply(a).hosts.addAll(HostListParser.parseHostOption(v)))
            .value("Placement", List.of("--hostfile", "-f"), List.of("-hostfile", "--machinefile", "-machinefile"), "FILE",
                    "hostfile: 'NAME slots=N' (Open MPI) or 'NAME:N' (Hydra) lines; # comments",
                    (a, v) -> of.apply(a).hosts.addAll(HostListParser.parseHostfile(org.banyan.pmix.RawPaths.resolve(of.apply(a).cwd, v))))
            .flag("Placement", List.of("--use-hwthread-cpus"), List.of("-use-hwthread-cpus"),
                    "without -H or a hostfile: a slot per hardware thread of this machine, not per core",
                    (a, v) -> of.apply(a).hwThreads = of.apply(a).started("--use-hwthread-cpus", true))
            .flag("Placement", List.of("--nolocal"), List.of("-nolocal"),
                    "no rank on this machine: its names are dropped from the hosts (mpirun's)",
                    (a, v) -> of.apply(a).noLocal = true);
    }

    /** How daemons start and the overlay's shapes. */
    public static <T> void declareDaemons(OptionTable<T> t, Function<T, DaemonOptions> of) {
        t.value(SECTION, List.of("--launcher"),
                    List.of("-launcher", "-bootstrap"), "L", """
                    inproc: one daemon inside banyan (default on this machine);
                    ssh (default for other hosts); slurm (default inside an
                    allocation, whose nodes are then the hosts); local: a
                    daemon process per host name, all on this machine (Hydra's
                    fork); Hydra's rsh is ssh with --launch-agent rsh""",
                    (x, v) -> {
                        DaemonOptions a = of.apply(x);
                        switch (v) {
                            case "fork" -> v = "local";
                            case "rsh" -> {
                                v = "ssh";
                                a.rsh = true;
                            }
                            default -> { }
                        }
                        if (!List.of("inproc", "local", "ssh", "slurm").contains(v)) {
                            throw new UsageException("--launcher '" + v + "' is not available (valid: inproc, local, ssh, slurm; "
                                    + "Hydra's fork and rsh)");
                        }
                        a.launcher = v;
                    })
            .value(SECTION, List.of("--launch-agent"),
                    List.of("-launch-agent", "-launcher-exec", "-bootstrap-exec"), "\"CMD\"",
                    "remote shell instead of \"ssh -x\" (implies --launcher ssh)",
                    (x, v) -> {
                        DaemonOptions a = of.apply(x);
                        a.launchAgent = v.strip();
                        if (a.launchAgent.isEmpty()) {
                            throw new UsageException("--launch-agent needs a command, as in --launch-agent \"ssh -p 2222\"");
                        }
                    })
            .value(SECTION, List.of("--spawn-degree"),
                    List.of(), "K", """
                    children per daemon in the launch tree (default 32);
                    0 spawns along the --routing tree""",
                    (a, v) -> of.apply(a).spawnDegree = of.apply(a).started("--spawn-degree", spawnDegree(v)))
            .value(SECTION, List.of("--routing"),
                    List.of(), "T", """
                    the overlay daemons reach each other by: radix:K
                    (default radix:32), binomial, or direct (each daemon
                    linked to the head, which relays)""",
                    (x, v) -> {
                        DaemonOptions a = of.apply(x);
                        try {
                            a.routing = a.started("--routing", TopologySpec.parse(v));
                        } catch (IllegalArgumentException e) {
                            throw new UsageException("--routing '" + v + "': " + e.getMessage());
                        }
                    })
            .value(SECTION, List.of("--launch"),
                    List.of(), "tree|star", "star: the baseline, the head starts and talks to every daemon",
                    (a, v) -> of.apply(a).star = of.apply(a).started("--launch", switch (v) {
                        case "tree" -> false;
                        case "star" -> true;
                        default -> throw new UsageException("--launch '" + v + "' is not a launch shape (valid: tree, star)");
                    }))
            .value(SECTION, List.of("--heartbeat-timeout"),
                    List.of(), "SECONDS", """
                    a daemon that says nothing for SECONDS (its host or link
                    went silent) is lost: the job ends naming its host, and a
                    daemon cut off from its parent ends its ranks (default 20;
                    links beat every quarter of it; at least 1)""",
                    (a, v) -> of.apply(a).started("--heartbeat-timeout", heartbeatTimeout(v)))
            .flag(SECTION, List.of("--static-ports"),
                    List.of(), """
                    in a Slurm allocation: one srun starts every daemon and
                    each finds its tree parent at a port derived from the job""",
                    (a, v) -> of.apply(a).staticPorts = of.apply(a).started("--static-ports", true));
    }

    /**
     * {@code --heartbeat-timeout}: set for this JVM, whose daemons and DVM head are started with
     * it (a property, since the links read it wherever they are made).
     */
    private static long heartbeatTimeout(String v) throws UsageException {
        long millis;
        try {
            millis = v.matches("\\d{1,6}(\\.\\d*)?") ? Math.round(Double.parseDouble(v) * 1000) : -1;
        } catch (NumberFormatException e) {
            millis = -1;
        }
        if (millis < org.banyan.runtime.net.Heartbeats.MIN_MILLIS) {
            throw new UsageException("--heartbeat-timeout must be a number of seconds of at least 1, got '" + v + "'");
        }
        System.setProperty(org.banyan.runtime.net.Heartbeats.PROPERTY, Long.toString(millis));
        return millis;
    }

    private <V> V started(String option, V value) {
        startOptions.add(option);
        return value;
    }

    /** The options given of how daemons start and link ({@code --spawn-degree}, ...) or count slots, in order. */
    java.util.Set<String> startOptionsGiven() {
        return startOptions;
    }

    /** Whether the hosts are a Slurm allocation's (known once {@link #nodes} ran). */
    boolean fromAllocation() {
        return fromAllocation;
    }

    private static UsageException staticPortsOutsideAllocation() { // fromAllocation implies --launcher slurm
        return new UsageException("--static-ports starts the daemons of a Slurm allocation's own nodes: run it "
                + "inside salloc or sbatch, without --host, --hostfile or another --launcher");
    }

    /** Whether -H or a hostfile named hosts. */
    boolean hostsListed() {
        return !hosts.isEmpty();
    }

    /** Hosts from elsewhere (a rankfile's), for a job that named none. */
    void useHosts(List<HostEntry> entries) {
        hosts.addAll(entries);
    }

    /** Whether any host was named (a DVM client must not name any). */
    boolean hostsGiven() {
        return !hosts.isEmpty() || launcher != null || launchAgent != null;
    }

    /** The topology daemon-to-daemon messages follow. */
    public TopologySpec routing() {
        return star && !startOptions.contains("--routing") ? new TopologySpec.Direct() : routing;
    }

    static int spawnDegree(String v) throws UsageException {
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

    /** The tree daemons are spawned along: the star baseline, radix:K, or the routing tree. */
    public TopologySpec topology() {
        if (star) {
            return new TopologySpec.Direct();
        }
        return spawnDegree == 0 ? routing : new TopologySpec.Radix(spawnDegree);
    }

    public LaunchAgent agent() {
        return switch (launcher) {
            case "inproc" -> new LaunchAgent.InProcess();
            case "local" -> new LaunchAgent.Local();
            case "slurm" -> staticPorts ? new LaunchAgent.SlurmStep(LaunchAgent.SlurmStep.portFor(environment),
                    environment.getOrDefault("SLURM_JOB_NODELIST", environment.get("SLURM_NODELIST"))) : new LaunchAgent.Slurm();
            default -> LaunchAgent.parse(launchAgent != null ? "ssh:" + launchAgent : rsh ? "ssh:rsh" : "ssh");
        };
    }

    /**
     * The job's nodes, and the launcher when none was chosen. Hosts that all designate this
     * machine fold into one node run by an in-process daemon; otherwise each distinct name is a
     * node (its slots added up over its entries), reached over ssh unless {@code --launcher local}
     * says to start every daemon on this machine.
     */
    public List<Node> nodes() throws UsageException {
        String self = LocalHost.hostname();
        if (launchAgent != null && launcher == null) {
            launcher = "ssh";
        }
        if (launchAgent != null && !launcher.equals("ssh")) {
            throw new UsageException("--launch-agent is the remote shell of --launcher ssh, not of --launcher " + launcher);
        }
        if (hosts.stream().anyMatch(h -> h.origin().equals("--host")) && hosts.stream().anyMatch(h -> !h.origin().equals("--host"))) {
            // their slots were added up without a word; mpirun keeps the hostfile's hosts that --host names
            throw new UsageException("--host and --hostfile both list the hosts: give one");
        }
        if (hosts.isEmpty() && (launcher == null || launcher.equals("slurm") || launcher.equals("ssh"))) {
            // Inside an allocation the allocation is the host list, and srun starts the daemons
            // (ssh does with --launcher ssh, as under mpiexec -launcher ssh there).
            List<HostEntry> allocation = SlurmAllocation.hosts(environment, allocationSlots);
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
        if (noLocal) {
            if (hosts.isEmpty()) {
                throw new UsageException("--nolocal leaves no host: give the others with --host or --hostfile");
            }
            hosts.removeIf(h -> LocalHost.isLocal(h.name()));
            if (hosts.isEmpty()) {
                throw new UsageException("--nolocal leaves no host: every host given is this machine (" + self + ")");
            }
        }
        if (star && startOptions.contains("--spawn-degree")) { // star won without a word
            throw new UsageException("--launch star and --spawn-degree both shape the launch tree: give one");
        }
        // Checked before the shortcuts below: outside an allocation it was dropped without a word.
        if (staticPorts && !fromAllocation) {
            throw staticPortsOutsideAllocation();
        }
        if (hwThreads && !hosts.isEmpty()) { // the hosts' slots are given: it would be dropped without a word
            throw new UsageException("--use-hwthread-cpus counts this machine's slots; "
                    + (fromAllocation ? "the Slurm allocation gives them" : "-H and --hostfile give them (NAME:SLOTS)"));
        }
        // ssh is for other hosts: on this machine alone mpirun and Hydra start their processes
        // themselves whatever the launcher says (a site's -launcher ssh then needs no sshd here);
        // a --launch-agent is used as given, to this machine too.
        boolean sshToSelfOnly = "ssh".equals(launcher) && launchAgent == null;
        if (hosts.isEmpty()) {
            if (launcher == null || sshToSelfOnly) {
                launcher = "inproc";
            }
            return List.of(new Node(self, LocalHost.slots(hwThreads)));
        }
        Map<String, Integer> slots = new LinkedHashMap<>();
        boolean allLocal = true;
        for (HostEntry h : hosts) {
            slots.merge(h.name(), h.slots() > 0 ? h.slots() : 1, Integer::sum);
            if (allLocal && !launcherIsLocal() && !LocalHost.isLocal(h.name())) {
                allLocal = false;
            }
        }
        if (launcher == null || sshToSelfOnly && allLocal) {
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
}
