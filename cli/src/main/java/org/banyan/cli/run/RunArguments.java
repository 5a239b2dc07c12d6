package org.banyan.cli.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.cli.options.ExportedVariable;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.SlurmAllocation;
import org.banyan.cli.options.UsageException;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.job.WireUp;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * Parses and validates the arguments of {@code banyan run} with mpirun's option names.
 * Everything that can be checked before launch is checked here; a problem is one
 * {@link UsageException} naming it.
 *
 * <p>Contexts of an MPMD line are separated by a lone {@code :}. {@code -n} belongs to its
 * context; every other option applies to the whole job wherever it appears.
 */
public final class RunArguments {
    public static final int DEFAULT_GRACE_MILLIS = 2000;
    public static final long DAEMON_START_MILLIS = 30_000;

    final Map<String, String> environment;
    final Path cwd;
    final DaemonOptions daemons;

    final PlacementOptions placement;
    boolean oversubscribe;
    final Map<String, String> exports = new LinkedHashMap<>();
    String wdir;
    final OutputArguments output;
    long timeoutMillis;
    int stdinRank = 0;
    Modex modex = Modex.LAZY;
    /** --mpi: auto (PMIx for programs built with Open MPI), pmi, pmix. */
    String mpi = "auto";
    boolean reportLaunch;
    /** --report-pid: -, + or a file resolved from here; null for none. */
    String reportPid;
    boolean allExitCodes;
    boolean stateOnTimeout;
    boolean keepGoing;
    DvmFiles dvm;
    /** The DVM is {@link DvmFiles#VARIABLE}'s, not --dvm's. */
    private boolean dvmFromEnvironment;
    /** --monitor's scope (all, external), null when not monitoring; and where profiles go. */
    String monitorScope;
    Path monitorOut;
    /** -n of the context being parsed. */
    int count;
    /** -env, -envlist and -envall of the context being parsed: in mpiexec.hydra they belong to it. */
    Map<String, String> contextExports = new LinkedHashMap<>();
    /**
     * Whether the hosts or ranks per host were given with mpiexec.hydra's own spellings
     * ({@link #HYDRA_HOSTS}): Hydra never refuses more ranks than slots, it goes round the hosts
     * again, and scripts written for it count on that.
     */
    private boolean hydraHosts;
    private static final java.util.Set<String> HYDRA_HOSTS = java.util.Set.of("-hosts", "-f", "-ppn", "-perhost");
    /** -genvall or -genvnone, whichever was given. */
    String environmentMode;
    /** mpirun's --path: where programs are looked for instead of PATH, or null. */
    String searchPath;
    private RankPrograms programs;
    /** --app (-configfile): the job's programs are in this file. */
    Path appFile;

    /** @param env this context's own variables, which win over the job's ({@code -x}, {@code -genv}) */
    private record Context(int count, String program, List<String> args, Map<String, String> env) {}

    /** Every option of {@code banyan run}, declared once: the parser, --help and README's table read this ({@link RunOptionTable}). */
    public static final OptionTable<RunArguments> OPTIONS = RunOptionTable.OPTIONS;

    /** Where a notice while parsing goes (a program's file system that does not answer): stderr. */
    private java.io.PrintStream notices = System.err;

    /** Has notices while parsing go to {@code to} instead of this process's stderr (a quick client's). */
    public RunArguments notices(java.io.PrintStream to) {
        this.notices = to;
        return this;
    }

    public RunArguments(Map<String, String> environment, Path cwd) {
        this.environment = environment;
        this.cwd = cwd;
        this.daemons = new DaemonOptions(environment, cwd, SlurmAllocation.Slots.TASKS);
        this.placement = new PlacementOptions(cwd);
        this.output = new OutputArguments(cwd);
    }

    /** Parses {@code args} (what follows {@code run}). */
    public RunRequest parse(List<String> args) throws UsageException {
        List<Context> contexts = contexts(args, false);
        if (appFile != null) {
            if (!contexts.isEmpty()) {
                throw new UsageException("--app (-configfile) gives the job's programs: drop " + contexts.getFirst().program()
                        + " from the command line, or put it in the file");
            }
            if (count > 0 || !contextExports.isEmpty()) {
                throw new UsageException((count > 0 ? "-n belongs" : "-env, -envlist and -envall belong") + " to a program: give "
                        + (count > 0 ? "it" : "them") + " on the lines of --app's file (-n 2 ./a)");
            }
            // the file's words, as if they followed the command line's options
            contexts = contexts(AppFile.words(appFile, "--app"), true);
        }
        output.check();
        if (timeoutMillis == 0) {
            timeoutMillis = Timeouts.fromEnvironment(environment.get("MPIEXEC_TIMEOUT"));
        }
        String overMca = environment.get("OMPI_MCA_" + McaParameters.OVERSUBSCRIBE);
        if (overMca != null && !oversubscribe && !placement.oversubscribeSaid()) {
            oversubscribeMca(overMca, "OMPI_MCA_" + McaParameters.OVERSUBSCRIBE);
        }
        if (output.quiet() && (allExitCodes || reportLaunch || stateOnTimeout)) {
            throw new UsageException("-q hides the " + (allExitCodes ? "exit codes --print-all-exitcodes"
                    : reportLaunch ? "report --report-launch" : "ranks --report-state-on-timeout") + " asks for: give one");
        }
        if (dvm == null) { // as FLUX_URI inside a Flux instance: the session's DVM, unless --dvm names one
            String named = environment.get(DvmFiles.VARIABLE);
            if (named != null && !named.isBlank()) {
                dvm = new DvmFiles(cwd.resolve(named));
                dvmFromEnvironment = true;
            }
        }
        return build(contexts).withReportPid(reportPid);
    }

    /**
     * The contexts of {@code args}, applying their options; options alone give none when they
     * name an app file and {@code args} are not its lines ({@code fromFile}).
     */
    private List<Context> contexts(List<String> args, boolean fromFile) throws UsageException {
        List<Context> contexts = new ArrayList<>();
        int i = 0;
        while (true) {
            count = 0;
            contextExports = new LinkedHashMap<>();
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
                if (a.equals("--")) { // the end of the options, as mpirun takes it: the program follows
                    if (i + 1 >= args.size() || args.get(i + 1).equals(":")) {
                        throw new UsageException("no program after '--' (usage: banyan run [options] -- PROGRAM [ARGS...])");
                    }
                    program = args.get(++i);
                    continue;
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
                hydraHosts |= HYDRA_HOSTS.contains(name);
                i = OptionParser.apply(option, this, args, i, name, inline);
            }
            if (program == null && !fromFile && appFile != null && contexts.isEmpty()) {
                return contexts;
            }
            if (program == null) {
                throw new UsageException(contexts.isEmpty() ? "no program given (usage: banyan run [options] PROGRAM [ARGS...])"
                        : "no program after ':' (MPMD syntax: -n 1 ./a : -n 3 ./b)");
            }
            contexts.add(new Context(count, program, progArgs, contextExports));
            if (i >= args.size()) {
                break;
            }
            i++; // past ':'
        }
        return contexts;
    }

    /** mpiexec.hydra's -genvall and -genvnone say opposite things: one of them, once. */
    void environmentMode(String option) throws UsageException {
        if (environmentMode != null && !environmentMode.equals(option)) {
            throw new UsageException(environmentMode + " and " + option + " say opposite things: give one");
        }
        environmentMode = option;
    }

    void monitor(String scope) throws UsageException {
        if (!scope.equals("all") && !scope.equals("external")) {
            throw new UsageException("--monitor=" + scope + ": the scope is all or external");
        }
        monitorScope = scope;
    }

    void export(String spec) throws UsageException {
        ExportedVariable v = ExportedVariable.parse(spec, environment);
        exports.put(v.name(), v.value());
    }

    void exportList(String option, String names, Map<String, String> into) throws UsageException {
        for (String n : names.split(",", -1)) {
            String value = environment.get(variableName(option, n));
            if (value != null) {
                into.put(n, value);
            }
        }
    }

    /** {@code rmaps_base_oversubscribe} ({@link McaParameters#OVERSUBSCRIBE}) from {@code from}; the command line's wins. */
    void oversubscribeMca(String value, String from) throws UsageException {
        if (McaParameters.bool(value, from)) {
            oversubscribe = true;
        } else {
            placement.noOversubscribe(from);
        }
    }

    /** {@code name} given to {@code option} (mpiexec.hydra's NAME VALUE pairs and lists), checked. */
    static String variableName(String option, String name) throws UsageException {
        if (!ExportedVariable.isName(name)) {
            throw new UsageException(option + " '" + name + "': not an environment variable name"
                    + (name.contains("=") ? " (" + option + " takes NAME VALUE; or give -x NAME=VALUE)" : ""));
        }
        return name;
    }

    /** The variables of context {@code c}'s ranks: the job's, then the context's own. */
    private Map<String, String> env(Context c) {
        if (c.env().isEmpty()) {
            return exports;
        }
        Map<String, String> env = new LinkedHashMap<>(exports);
        env.putAll(c.env());
        return env;
    }

    /** -n, once per program: a second, different count was taken over the first in silence. */
    void count(int n) throws UsageException {
        if (count > 0 && count != n) {
            throw new UsageException("-n " + n + ": the number of ranks of this program was already given as " + count
                    + " (for programs of their own, separate them with ':')");
        }
        count = n;
    }

    static int stdin(String text) throws UsageException {
        if (text.equals("none")) {
            return -1;
        }
        if (text.equals("all")) {
            return JobDescription.STDIN_ALL;
        }
        try {
            int r = Integer.parseInt(text);
            if (r >= 0) {
                return r;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--stdin takes a rank number, 'all' or 'none', got '" + text + "'");
    }

    private RunRequest build(List<Context> contexts) throws UsageException {
        // The user's own Open MPI parameters, from banyan's environment as mpirun forwards them,
        // over those the daemons give ranks (mpi_oversubscribe, ess, pmix, schizo, ...), which
        // yield to a job's own variables; -x's value wins over the environment's.
        environment.forEach((name, value) -> {
            if (name.startsWith("OMPI_MCA_")) {
                exports.putIfAbsent(name, value);
            }
        });
        if (monitorScope != null) {
            // read by banyan-comm in every rank (World): monitoring on from the start, profiles there at the end
            exports.put("BANYAN_MONITOR", monitorScope);
            exports.put("BANYAN_MONITOR_OUT", (monitorOut != null ? monitorOut : cwd.resolve("banyan-monitor")).toString());
        }
        if (dvm != null) {
            return buildForDvm(contexts);
        }
        if (placement.placesRanks() && contexts.size() == 1 && contexts.getFirst().count() == 0) {
            Context c = contexts.getFirst();
            contexts = List.of(new Context(placement.placedRanks(), c.program(), c.args(), c.env()));
        }
        if (placement.hasRankfile() && !daemons.hostsListed()) {
            daemons.useHosts(placement.rankfileHosts());
        }
        List<Node> nodes = placement.withPpr(daemons.nodes());
        int totalSlots = 0;
        for (Node n : nodes) {
            totalSlots += n.slots();
        }
        Path workdir = workdir();
        List<AppContext> apps = new ArrayList<>();
        WireUp wireUp = wireUp(contexts, workdir);
        for (Context c : contexts) {
            int count = c.count() > 0 ? c.count() : totalSlots;
            apps.add(new AppContext(executable(c, workdir), c.args(), count, env(c), workdir == null ? null : workdir.toString()));
        }
        int size = size(apps);
        JobDescription job = new JobDescription(1, apps, nodes, placement.mapping(), placement.oversubscribe(oversubscribe, hydraHosts),
                stdinRank, cwd.toString(), modex, placement.placement(nodes, size, false));
        job = org.banyan.core.pmix.PmixNamespaces.name(job, wireUp);
        LocalCores.checkPerRank(job.placement(), nodes);
        if (stdinRank >= job.size()) {
            throw new UsageException("--stdin " + stdinRank + ": the job has only " + job.size() + " rank"
                    + (job.size() == 1 ? "" : "s"));
        }
        try {
            RankMap.of(job);
        } catch (IllegalArgumentException e) {
            // inside an allocation the slots are its tasks: --host would leave the allocation
            throw new UsageException(daemons.fromAllocation() ? e.getMessage().replace(RankMap.MORE_SLOTS,
                    "ask Slurm for more tasks (salloc/sbatch -n, --ntasks-per-node)") : e.getMessage());
        }
        output.prepareDirectory();
        HeadSettings settings = new HeadSettings(timeoutMillis, DEFAULT_GRACE_MILLIS, DAEMON_START_MILLIS, reportLaunch,
                allExitCodes, keepGoing, stateOnTimeout);
        return new RunRequest(job, settings, output.options(), daemons.agent(),
                daemons.topology(), daemons.routing()).withDisplayAllocation(placement.displayAllocation());
    }

    /**
     * A job for a DVM: the DVM places it on its own hosts' free slots, so only what does not
     * depend on them is checked here; a job the DVM cannot place is refused by it, in one line.
     */
    private RunRequest buildForDvm(List<Context> contexts) throws UsageException {
        // a DVM named by the environment, not typed: the way out says how to run without it
        String by = dvmFromEnvironment ? DvmFiles.VARIABLE : "--dvm";
        String without = dvmFromEnvironment ? "unset " + DvmFiles.VARIABLE : "run without --dvm";
        if (daemons.hostsGiven()) {
            throw new UsageException(by + " runs on the DVM's own hosts: drop --host, --hostfile, --launcher and "
                    + "--launch-agent" + (dvmFromEnvironment ? ", or " + without : ""));
        }
        if (reportLaunch) {
            throw new UsageException("--report-launch reports the start of daemons, which " + by + " does not do"
                    + (dvmFromEnvironment ? "; " + without : ""));
        }
        if (allExitCodes) {
            throw new UsageException("--print-all-exitcodes: a DVM tells its client the job's status only; " + without);
        }
        if (keepGoing) {
            throw new UsageException("--enable-recovery: a DVM ends a job at its first failed rank; " + without);
        }
        if (stateOnTimeout) {
            throw new UsageException("--report-state-on-timeout: a DVM tells its client the job's status only; " + without);
        }
        if (placement.displayAllocation()) {
            throw new UsageException("--display-allocation: a DVM's hosts and slots are in banyan dvm status"
                    + (dvmFromEnvironment ? "; " + without : ""));
        }
        if (output.options().namesHosts()) {
            throw new UsageException("%h and %p in an output pattern name the ranks' hosts, which a DVM does not tell its "
                    + "client: leave them out, or " + without);
        }
        if (!daemons.startOptionsGiven().isEmpty()) { // they were dropped without a word
            throw new UsageException(by + " runs on daemons already started: drop " + String.join(", ", daemons.startOptionsGiven())
                    + " (give them to banyan dvm start)" + (dvmFromEnvironment ? ", or " + without : ""));
        }
        Path workdir = workdir();
        List<AppContext> apps = new ArrayList<>();
        WireUp wireUp = wireUp(contexts, workdir);
        for (Context c : contexts) {
            apps.add(new AppContext(executable(c, workdir), c.args(), c.count(), env(c), workdir == null ? null : workdir.toString()));
        }
        int size = size(apps);
        output.prepareDirectory();
        ClientMessage.RunJob job = new ClientMessage.RunJob(apps, placement.mapping(), placement.oversubscribe(oversubscribe, hydraHosts),
                stdinRank, cwd.toString(), modex, timeoutMillis, placement.placement(List.of(), size, true), wireUp);
        return RunRequest.forDvm(dvm, job, output.options(), dvmFromEnvironment);
    }

    /** The job's rank count, a count no job may have refused as a usage error. */
    private static int size(List<AppContext> apps) throws UsageException {
        try {
            return JobDescription.ranks(apps);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private Path workdir() throws UsageException {
        if (wdir == null) {
            return null;
        }
        Path workdir = cwd.resolve(wdir).normalize();
        if (!Files.isDirectory(workdir)) {
            throw new UsageException("--wdir '" + wdir + "' is not a directory");
        }
        return workdir;
    }

    /**
     * Checks every context's program, and says how the job's ranks are served
     * ({@link RankPrograms#wireUp}); a monitored PMIx job is monitored by Open MPI's own
     * components. Before the applications are built: both decide their environment.
     */
    private WireUp wireUp(List<Context> contexts, Path workdir) throws UsageException {
        WireUp how = programs().wireUp(contexts.stream().map(Context::program).toList(), workdir != null ? workdir : cwd,
                mpi, monitorScope != null);
        if (how == WireUp.PMIX && monitorScope != null) {
            monitorOpenMpi();
        }
        return how;
    }

    /** What the daemons start for context {@code c} ({@link RankPrograms#executable}). */
    private String executable(Context c, Path workdir) throws UsageException {
        return programs().executable(c.program(), workdir != null ? workdir : cwd);
    }

    /** One for the run, made once the options are read: it keeps what it found for the second asking. */
    private RankPrograms programs() {
        if (programs == null) {
            programs = new RankPrograms(searchPath, environment.get("PATH"), notices);
        }
        return programs;
    }

    /**
     * {@code --monitor} of an Open MPI program: its own monitoring components (pml, coll and osc
     * monitoring, in Debian's build) count from MPI_Init, internal and external messages apart,
     * and each rank writes {@code banyan.RANK.prof} into the monitoring directory at
     * MPI_Finalize, as banyan-comm's ranks do; {@code banyan monitor} and {@code banyan place}
     * read both. Open MPI does not create the directory.
     */
    private void monitorOpenMpi() throws UsageException {
        Path out = monitorOut != null ? monitorOut : cwd.resolve("banyan-monitor");
        try {
            Files.createDirectories(out);
        } catch (java.io.IOException e) {
            throw new UsageException("--monitor-out '" + out + "' cannot be created: " + e.getMessage());
        }
        exports.putIfAbsent("OMPI_MCA_pml_monitoring_enable", "2");
        exports.putIfAbsent("OMPI_MCA_pml_monitoring_enable_output", "3");
        exports.putIfAbsent("OMPI_MCA_pml_monitoring_filename", out.resolve("banyan").toString());
    }
}
