package org.banyan.cli.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.banyan.cli.options.HostEntry;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.InputFiles;
import org.banyan.cli.options.LocalHost;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankPlacement;
import org.banyan.place.CommMatrix;
import org.banyan.place.Rankfile;
import org.banyan.place.TreeMatch;
import org.banyan.topo.CpuBinding;
import org.banyan.topo.SysfsTopology;
import org.banyan.topo.Topology;

/**
 * {@code banyan run}'s mapping and binding options (mpirun's names): {@code --map-by},
 * {@code --rankfile}, {@code --bind-to}, {@code --report-bindings}, {@code --cpus-per-rank}.
 * Policies that need a host's shape (ppr over packages or cores, TreeMatch) take it from this
 * host's {@code /sys}: hosts are assumed to be alike. Binding itself is resolved by each daemon
 * on its own host.
 */
final class PlacementOptions {
    private final Path cwd;
    private MappingPolicy mapping = MappingPolicy.SLOT;
    private boolean bySocket;
    private int ppr;
    private boolean mapByGiven;
    private boolean perNodeGiven;
    private String pprObject;
    private String treematch;
    private Path rankfile;
    private List<Rankfile.Entry> rankfileEntries;
    private CpuBinding.Target bindTo;
    private boolean report;
    private boolean displayMap;
    private boolean displayAllocation;
    private int cpusPerRank = 1;
    private boolean cpusPerRankGiven;
    private boolean peGiven;
    private String rankBy;
    /** {@code --map-by ...:OVERSUBSCRIBE} or {@code :NOOVERSUBSCRIBE}; null when neither is said. */
    private Boolean oversubscribe;
    /** Which option said no oversubscription, for the message when another says the opposite. */
    private String noOversubscribe = "--map-by ...:NOOVERSUBSCRIBE";
    private CommMatrix matrix;

    PlacementOptions(Path cwd) {
        this.cwd = cwd;
    }

    static <T> void declare(OptionTable<T> t, Function<T, PlacementOptions> of) {
        t.value("Placement", List.of("--map-by"), List.of("-map-by"), "POLICY[:MODS]", """
                    slot (default): fill each host's slots first; node: round robin
                    over hosts; socket: like slot, ranks of a host dealt over its
                    packages; core: like slot; ppr:N:node|socket|core: N ranks per
                    host, package or core; treematch:MATRIX: place by TreeMatch
                    on a matrix (as banyan place --matrix) and bind to cores.
                    MODS, comma-separated, as Open MPI's: PE=N (N cores per rank,
                    bound to core unless --bind-to says otherwise), OVERSUBSCRIBE,
                    NOOVERSUBSCRIBE""",
                    (a, v) -> of.apply(a).mapBy(v))
            .flag("Placement", List.of("--nooversubscribe"), List.of("-nooversubscribe"),
                    "no more ranks than slots (Open MPI's default; under Hydra's -hosts, -f, -ppn too)",
                    (a, v) -> of.apply(a).noOversubscribe("--nooversubscribe"))
            .flag("Placement", List.of("--bynode"), List.of("-bynode", "-rr"), "--map-by node (Open MPI 1.x's spelling; Hydra's -rr)",
                    (a, v) -> of.apply(a).mapBy("node"))
            .flag("Placement", List.of("--byslot"), List.of("-byslot"), "--map-by slot (Open MPI 1.x's spelling)",
                    (a, v) -> of.apply(a).mapBy("slot"))
            .flag("Placement", List.of("--bysocket"), List.of("-bysocket"), "--map-by socket (Open MPI 1.x's spelling)",
                    (a, v) -> of.apply(a).mapBy("socket"))
            .value("Placement", List.of("--npersocket"), List.of("-npersocket"), "N", "--map-by ppr:N:socket (Open MPI's spelling)",
                    (a, v) -> of.apply(a).mapBy("ppr:" + HostListParser.positive(v, "--npersocket") + ":socket"))
            .value("Placement", List.of("--npernode"), List.of("-npernode", "-N", "-ppn", "--ppn", "-perhost"), "N",
                    "N ranks on each host: --map-by ppr:N:node (mpirun's -npernode and -N, Hydra's -ppn)",
                    (a, v) -> of.apply(a).perNode(v))
            .value("Placement", List.of("--rank-by"), List.of("-rank-by"), "node|slot|core|socket", """
                    how ranks are numbered, as mpirun's --rank-by: node: round robin over the hosts;
                    slot, core, hwthread: host after host, in core order; socket, package, numa:
                    host after host, dealt over its packages. Each host keeps the ranks --map-by
                    gives it, on the same cores; only their numbers change (default: as mapped)""",
                    (a, v) -> of.apply(a).rankBy(v))
            .flag("Placement", List.of("--pernode"), List.of("-pernode"), "one rank on each host: --npernode 1 (mpirun's)",
                    (a, v) -> of.apply(a).perNode("1"))
            .value("Placement", List.of("--rankfile"), List.of("-rankfile", "-rf"), "FILE",
                    "place and bind each rank as FILE says ('rank N=HOST slot=S[:C]', Open MPI's\n"
                            + "format; banyan place writes it); its hosts are the hosts unless -H is given",
                    (a, v) -> of.apply(a).rankfile = org.banyan.pmix.RawPaths.resolve(of.apply(a).cwd, v))
            .value("Placement", List.of("--bind-to"), List.of("-bind-to", "-binding"), "none|core|socket|numa|hwthread", """
                    bind each rank to its cores, or to their package or NUMA node, or to one hardware
                    thread per core (default none). Open MPI's qualifiers overload-allowed and
                    if-supported are what banyan does anyway (ranks beyond the cores share them);
                    core:N (mpiexec.hydra's) is --cpus-per-rank N""",
                    (a, v) -> of.apply(a).bindTo(v))
            .value("Placement", List.of("--cpus-per-rank"), List.of("--cpus-per-proc", "-cpus-per-proc", "-cpus-per-rank"), "N",
                    "cores given to each rank (with --bind-to; default 1)",
                    (a, v) -> of.apply(a).cpusPerRank(HostListParser.positive(v, "--cpus-per-rank"), "--cpus-per-rank"))
            .flag("Placement", List.of("--report-bindings"), List.of("-report-bindings"),
                    "print on stderr, per rank, the CPUs it is bound to",
                    (a, v) -> of.apply(a).report = true)
            .flag("Placement", List.of("--display-map"), List.of("-display-map"),
                    "print on stderr, before the ranks start, each host's slots and ranks",
                    (a, v) -> of.apply(a).displayMap = true)
            .flag("Placement", List.of("--display-allocation"), List.of("-display-allocation"),
                    "print on stderr, before the daemons start, the hosts and their slots",
                    (a, v) -> of.apply(a).displayAllocation = true);
    }

    /** {@code --npernode N}: ppr:N:node. With --map-by it was one or the other, whichever came last. */
    private void perNode(String v) throws UsageException {
        if (mapByGiven) {
            throw bothPlace();
        }
        perNodeGiven = true;
        policy("ppr:" + HostListParser.positive(v, "--npernode") + ":node");
    }

    private static UsageException bothPlace() {
        return new UsageException("--npernode and --map-by both say how ranks are placed: give one");
    }

    private void mapBy(String v) throws UsageException {
        if (v.startsWith(":")) { // modifiers only: the placement stays as said elsewhere
            policy(v);
            return;
        }
        if (perNodeGiven) {
            throw bothPlace();
        }
        mapByGiven = true;
        policy(v);
    }

    /** {@code --bind-to TARGET[:QUALIFIER,...]}: Open MPI's qualifiers, or Hydra's {@code core:N}. */
    private void bindTo(String v) throws UsageException {
        int colon = v.indexOf(':');
        String name = colon < 0 ? v : v.substring(0, colon);
        CpuBinding.Target target = CpuBinding.Target.parse(name);
        if (target == null) {
            throw new UsageException("--bind-to '" + v + "' is not a binding (valid: none, core, socket, numa, hwthread)");
        }
        if (colon >= 0) {
            for (String q : v.substring(colon + 1).split(",")) {
                // banyan binds a rank beyond the cores to a core already taken, and binding is always supported here
                if (q.equalsIgnoreCase("overload-allowed") || q.equalsIgnoreCase("if-supported")) {
                    continue;
                }
                if (target == CpuBinding.Target.CORE && q.matches("[0-9]+")) {
                    cpusPerRank(HostListParser.positive(q, "--bind-to core:N"), "--bind-to core:N");
                    continue;
                }
                throw new UsageException("--bind-to '" + v + "': '" + q + "' is not a qualifier banyan knows "
                        + "(overload-allowed, if-supported, or core:N cores per rank)");
            }
        }
        bindTo = target;
    }

    /** Cores per rank, said once: {@code --cpus-per-rank}, {@code PE=N} and {@code core:N} are one setting. */
    private void cpusPerRank(int n, String option) throws UsageException {
        if (cpusPerRankGiven && n != cpusPerRank) {
            throw new UsageException(option + " " + n + ": the cores per rank were already given as " + cpusPerRank);
        }
        cpusPerRankGiven = true;
        cpusPerRank = n;
    }

    /**
     * Open MPI's mapping modifiers after the policy: {@code slot:PE=2}, {@code ppr:1:socket:PE=4},
     * {@code :OVERSUBSCRIBE}. Open MPI separates them by commas; a colon is taken too.
     */
    private String withoutModifiers(String v) throws UsageException {
        int at = v.startsWith("ppr:") ? nthColon(v, 3) : v.indexOf(':');
        if (at < 0) {
            return v;
        }
        for (String m : v.substring(at + 1).split("[,:]")) {
            String mod = m.toUpperCase(java.util.Locale.ROOT);
            if (mod.startsWith("PE=")) {
                cpusPerRank(HostListParser.positive(m.substring(3), "--map-by ...:PE"), "--map-by ...:PE=");
                peGiven = true;
            } else if (mod.equals("OVERSUBSCRIBE") || mod.equals("NOOVERSUBSCRIBE")) {
                oversubscribe = mod.equals("OVERSUBSCRIBE");
            } else {
                throw new UsageException("--map-by '" + v + "': '" + m + "' is not a modifier banyan knows "
                        + "(PE=N, OVERSUBSCRIBE, NOOVERSUBSCRIBE)");
            }
        }
        return v.substring(0, at);
    }

    private static int nthColon(String v, int n) {
        int at = -1;
        for (int i = 0; i < n; i++) {
            at = v.indexOf(':', at + 1);
            if (at < 0) {
                return -1;
            }
        }
        return at;
    }

    /** No more ranks than slots, as {@code saidBy} says (named when another option says the opposite). */
    void noOversubscribe(String saidBy) {
        oversubscribe = false;
        noOversubscribe = saidBy;
    }

    /** Whether an option of the mapping said whether to oversubscribe. */
    boolean oversubscribeSaid() {
        return oversubscribe != null;
    }

    /**
     * Whether more ranks than slots may run: {@code --oversubscribe} ({@code given}) or the
     * mapping's modifier, which must not say the opposite; else {@code otherwise} (mpiexec.hydra's
     * spellings of the hosts, under which ranks wrap over them as Hydra places them).
     */
    boolean oversubscribe(boolean given, boolean otherwise) throws UsageException {
        if (given && Boolean.FALSE.equals(oversubscribe)) {
            throw new UsageException("--oversubscribe and " + noOversubscribe + " say opposite things: give one");
        }
        return given || (oversubscribe != null ? oversubscribe : otherwise);
    }

    private void policy(String given) throws UsageException {
        if (given.startsWith("treematch:")) {
            policyOf(given);
            return;
        }
        String v = withoutModifiers(given);
        if (!v.isEmpty()) { // ":OVERSUBSCRIBE" alone keeps the policy
            policyOf(v);
        }
    }

    private void policyOf(String v) throws UsageException {
        if (v.startsWith("treematch:")) {
            treematch = v.substring("treematch:".length());
            if (treematch.isEmpty()) {
                throw new UsageException("--map-by treematch:MATRIX needs a matrix (a .prof directory, CSV or .mat)");
            }
            return;
        }
        if (v.startsWith("ppr:")) {
            String[] p = v.split(":");
            if (p.length != 3 || !List.of("node", "socket", "package", "core").contains(p[2])) {
                throw new UsageException("--map-by '" + v + "': ppr is ppr:N:node, ppr:N:socket or ppr:N:core");
            }
            ppr = HostListParser.positive(p[1], "--map-by ppr");
            pprObject = p[2];
            bySocket = pprObject.equals("socket") || pprObject.equals("package");
            return;
        }
        if (v.equals("socket") || v.equals("package")) { // across hosts as slot; within a host, dealt over packages
            mapping = MappingPolicy.SLOT;
            bySocket = true;
            return;
        }
        mapping = MappingPolicy.parse(v);
        if (mapping == null) {
            throw new UsageException("--map-by '" + v
                    + "' is not a mapping policy (valid: slot, node, socket, core, ppr:N:OBJ, treematch:MATRIX)");
        }
    }

    boolean displayAllocation() {
        return displayAllocation;
    }

    MappingPolicy mapping() {
        return rankBy == null ? mapping : mapping.rankedBy(rankBy.equals("node"));
    }

    private void rankBy(String v) throws UsageException {
        if (!List.of("node", "slot", "core", "hwthread", "socket", "package", "numa").contains(v)) {
            throw new UsageException("--rank-by '" + v + "' is not a ranking banyan knows (node, slot, core, hwthread, "
                    + "socket, package, numa)");
        }
        rankBy = v;
    }

    /** Whether --rank-by numbers a host's ranks the other way than they are spread over its cores. */
    private boolean reranked() {
        if (rankBy == null || rankBy.equals("node")) {
            return false;
        }
        return List.of("socket", "package", "numa").contains(rankBy) != bySocket;
    }

    /** Whether hosts or rank counts come from here (a rankfile, a matrix). */
    boolean placesRanks() {
        return rankfile != null || treematch != null;
    }

    boolean hasRankfile() {
        return rankfile != null;
    }

    /** The rankfile's hosts with as many slots as ranks on them, for jobs that name no host. */
    List<HostEntry> rankfileHosts() throws UsageException {
        Map<String, Integer> count = new LinkedHashMap<>();
        for (Rankfile.Entry e : rankfile()) {
            count.merge(e.host(), 1, Integer::sum);
        }
        List<HostEntry> out = new ArrayList<>();
        count.forEach((h, n) -> out.add(new HostEntry(h, n, "rankfile " + rankfile)));
        return out;
    }

    /** The ranks a rankfile or matrix places, or 0 when neither is given. */
    int placedRanks() throws UsageException {
        if (rankfile != null) {
            return rankfile().size();
        }
        return treematch != null ? matrix().size() : 0;
    }

    /** The hosts with ppr's slots (N per host, package or core), or as they are. */
    List<Node> withPpr(List<Node> nodes) throws UsageException {
        if (ppr == 0) {
            return nodes;
        }
        int per = ppr;
        if (!pprObject.equals("node")) {
            CpuBinding host = new CpuBinding(localTopology());
            per *= pprObject.equals("core") ? host.cores() : host.packages();
        }
        List<Node> out = new ArrayList<>();
        for (Node n : nodes) {
            out.add(new Node(n.name(), per));
        }
        return out;
    }

    /** The placement of a job of {@code size} ranks on {@code nodes}. */
    RankPlacement placement(List<Node> nodes, int size, boolean dvm) throws UsageException {
        if (rankfile != null && treematch != null) {
            throw new UsageException("--rankfile and --map-by treematch: both place every rank; give one");
        }
        if (dvm && placesRanks()) {
            throw new UsageException("a DVM places jobs on its free slots itself: --rankfile and --map-by treematch do not apply");
        }
        if (dvm && ppr > 0) {
            // It was dropped without a word: a DVM's job took every free slot instead of N per host.
            throw new UsageException("a DVM places jobs on its free slots itself: " + (perNodeGiven ? "--npernode" : "--map-by ppr")
                    + " does not apply "
                    + "(give -n, with --map-by node or slot)");
        }
        if (cpusPerRank > 1 && (bindTo == null && !peGiven || bindTo == CpuBinding.Target.NONE)) {
            throw new UsageException((peGiven ? "--map-by ...:PE=" + cpusPerRank : "--cpus-per-rank")
                    + " gives each rank cores to be bound to: " + (bindTo == null ? "add --bind-to core" : "drop --bind-to none"));
        }
        // PE=N binds to cores unless told otherwise, as in Open MPI
        CpuBinding.Target target = bindTo != null ? bindTo : peGiven ? CpuBinding.Target.CORE : CpuBinding.Target.NONE;
        if (!placesRanks()) {
            return new RankPlacement(target, bySocket, cpusPerRank, report, null, null).withDisplayMap(displayMap)
                    .withReranked(reranked());
        }
        if (rankBy != null) {
            throw new UsageException("--rank-by: " + (rankfile != null ? "a rankfile" : "TreeMatch") + " numbers every rank itself");
        }
        if (bindTo != null && bindTo != CpuBinding.Target.CORE) {
            throw new UsageException("--bind-to " + bindTo.name().toLowerCase() + ": a rankfile or TreeMatch binds each rank "
                    + "to its slot's cores");
        }
        List<Rankfile.Entry> entries = rankfile != null ? rankfile() : treematchEntries(nodes);
        if (entries.size() != size) {
            throw new UsageException((rankfile != null ? "the rankfile places " : "the matrix has ") + entries.size()
                    + " ranks; the job has " + size);
        }
        int[] nodeOf = new int[size];
        String[] slots = new String[size];
        CpuBinding local = null;
        for (Rankfile.Entry e : entries) {
            nodeOf[e.rank()] = nodeIndex(nodes, e.host());
            slots[e.rank()] = e.slot();
            if (LocalHost.isLocal(nodes.get(nodeOf[e.rank()]).name())) { // checked here when it can be
                local = local != null ? local : new CpuBinding(localTopology());
                try {
                    local.ofSlot(e.slot());
                } catch (IllegalArgumentException x) {
                    throw new UsageException("rank " + e.rank() + " on " + e.host() + ": " + x.getMessage());
                }
            }
        }
        return new RankPlacement(CpuBinding.Target.CORE, false, 1, report, nodeOf, slots).withDisplayMap(displayMap);
    }

    private List<Rankfile.Entry> treematchEntries(List<Node> nodes) throws UsageException {
        Topology cluster = PlacementInputs.cluster(localTopology(), nodes.size(), null, "--map-by treematch");
        CommMatrix m = matrix();
        if (m.size() > cluster.usableLeaves()) {
            throw new UsageException("--map-by treematch: the matrix has " + m.size() + " ranks and the hosts " + cluster.usableLeaves()
                    + " cores");
        }
        return Rankfile.of(TreeMatch.map(m, cluster).leafOf(), cluster, nodes.stream().map(Node::name).toList());
    }

    private static int nodeIndex(List<Node> nodes, String host) throws UsageException {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).name().equals(host)) {
                return i;
            }
        }
        if (nodes.size() == 1 && LocalHost.isLocal(host) && LocalHost.isLocal(nodes.getFirst().name())) {
            return 0;
        }
        throw new UsageException("the rankfile names host '" + host + "', which is not among the job's hosts");
    }

    private List<Rankfile.Entry> rankfile() throws UsageException {
        if (rankfileEntries == null) {
            try {
                rankfileEntries = Rankfile.parse(InputFiles.text(rankfile, "--rankfile"), org.banyan.pmix.RawPaths.shown(rankfile));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        return rankfileEntries;
    }

    private CommMatrix matrix() throws UsageException {
        if (matrix == null) {
            matrix = PlacementInputs.matrix(treematch, cwd, "--map-by treematch");
        }
        return matrix;
    }

    private static Topology localTopology() throws UsageException {
        try {
            return SysfsTopology.local();
        } catch (IllegalArgumentException e) {
            throw new UsageException("cannot read this host's topology: " + e.getMessage());
        }
    }
}
