package org.banyan.cli.run;

import java.util.List;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.core.job.Modex;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * The options of {@code banyan run}, declared once: each with its names, Open MPI's and
 * mpiexec.hydra's aliases, its group and text for {@code --help} and README's table, and what it
 * sets on the {@link RunArguments} being parsed.
 */
final class RunOptionTable {
    private RunOptionTable() {}

    static final OptionTable<RunArguments> OPTIONS = new OptionTable<RunArguments>()
            .value("Placement", List.of("-n", "-np"), List.of("--np", "--n", "-c"), "N",
                    "number of ranks (default: one per slot)",
                    (a, v) -> a.count(HostListParser.positive(v, "-n")))
            .with(t -> DaemonOptions.declareHosts(t, a -> a.daemons))
            .with(t -> PlacementOptions.declare(t, a -> a.placement))
            .flag("Placement", List.of("--oversubscribe"), List.of("-oversubscribe"),
                    "allow more ranks than slots (default slots: this machine's cores)",
                    (a, v) -> a.oversubscribe = true)
            .value("Placement", List.of("--app"), List.of("-app", "-configfile", "--configfile"), "FILE", """
                    the job's programs, a line each as on the command line (-n 2 ./a -v), or
                    joined by ':'; # comments (Open MPI's appfile, mpiexec.hydra's -configfile).
                    Other options on the command line apply to them all""",
                    (a, v) -> {
                        if (a.appFile != null) {
                            throw new UsageException("--app is given twice: put every program in one file");
                        }
                        a.appFile = org.banyan.pmix.RawPaths.resolve(a.cwd, v);
                    })
            .value("Environment and I/O", List.of("-x"), List.of(), "VAR[=VALUE]",
                    "export VAR (with its current value, or VALUE) to every rank",
                    (a, v) -> a.export(v))
            .pair("Environment and I/O", List.of("--mca"), List.of("-mca", "--gmca", "-gmca"), "NAME VALUE",
                    "an Open MPI parameter for the ranks, as mpirun gives it: -x OMPI_MCA_NAME=VALUE;\n"
                            + "rmaps_base_oversubscribe is mpirun's own, --oversubscribe (also from the environment)",
                    (a, n, v) -> {
                        if (n.equals(McaParameters.OVERSUBSCRIBE)) {
                            a.oversubscribeMca(v, "--mca " + n);
                        } else {
                            a.exports.put("OMPI_MCA_" + McaParameters.forRanks(n), v);
                        }
                    })
            .pair("Environment and I/O", List.of("-genv"), List.of(), "NAME VALUE",
                    "-x NAME=VALUE as mpiexec.hydra writes it",
                    (a, n, v) -> a.exports.put(RunArguments.variableName("-genv", n), v))
            .pair("Environment and I/O", List.of("-env"), List.of(), "NAME VALUE",
                    "NAME=VALUE for the ranks of this context (of an MPMD line) only, over -x and -genv",
                    (a, n, v) -> a.contextExports.put(RunArguments.variableName("-env", n), v))
            .value("Environment and I/O", List.of("-genvlist"), List.of(), "NAME,...",
                    "export each NAME with its value here, as -x NAME; one not set here is left unset\n"
                            + "(as mpiexec.hydra does); -envlist does it for this context only",
                    (a, v) -> a.exportList("-genvlist", v, a.exports))
            .value("Environment and I/O", List.of("-envlist"), List.of(), "NAME,...",
                    "-genvlist for the ranks of this context only",
                    (a, v) -> a.exportList("-envlist", v, a.contextExports))
            .flag("Environment and I/O", List.of("-genvall"), List.of(), """
                    export all of banyan's environment to every rank (mpiexec.hydra's default);
                    ranks on this machine have it anyway, ranks on other hosts otherwise get
                    their login's; -envall does it for this context only""",
                    (a, v) -> {
                        a.exports.putAll(a.environment);
                        a.environmentMode("-genvall");
                    })
            .flag("Environment and I/O", List.of("-genvnone"), List.of(),
                    "export only the variables named (-x, -genv...): banyan's default; as under\n"
                            + "mpiexec.hydra, ranks on this machine still have banyan's environment",
                    (a, v) -> a.environmentMode("-genvnone"))
            .flag("Environment and I/O", List.of("-envall"), List.of(),
                    "-genvall for the ranks of this context only",
                    (a, v) -> a.contextExports.putAll(a.environment))
            .value("Environment and I/O", List.of("--path"), List.of("-path"), "DIR[:DIR...]",
                    "look for programs named without a / there instead of in PATH (mpirun's); the ranks'\n"
                            + "PATH is left as it is",
                    (a, v) -> a.searchPath = String.join(":", java.util.Arrays.stream(v.split(":"))
                            .map(d -> a.cwd.resolve(d).toString()).toList()))
            .value("Environment and I/O", List.of("--wdir"), List.of("-wdir", "--cwd", "-wd", "--wd"), "DIR",
                    "working directory of the ranks",
                    (a, v) -> a.wdir = v)
            .value("Environment and I/O", List.of("--stdin"), List.of("-stdin"), "RANK|all|none",
                    "which rank reads banyan's stdin (default 0); all: every rank reads all of it",
                    (a, v) -> a.stdinRank = RunArguments.stdin(v))
            .with(t -> OutputArguments.declare(t, a -> a.output))
            .flag("Environment and I/O", List.of("--print-all-exitcodes"), List.of("-print-all-exitcodes"),
                    "at the end, print every rank's exit status by host (mpiexec.hydra's)",
                    (a, v) -> a.allExitCodes = true)
            .value("Control", List.of("--mpi"), List.of("-mpi"), "auto|pmi|pmix", """
                    how ranks wire up: pmi is PMI-1/PMI-2 (MPICH family), pmix is PMIx
                    through libpmix (Open MPI); auto (default) reads the program: PMIx
                    for Open MPI, PMI for MPICH, both side by side when it cannot tell
                    (python3, scripts, env, time); a rank that runs MPI as a singleton
                    fails the job""",
                    (a, v) -> {
                        if (!List.of("auto", "pmi", "pmix").contains(v)) {
                            throw new UsageException("--mpi '" + v + "' is auto, pmi or pmix");
                        }
                        a.mpi = v;
                    })
            .flag("Control", List.of("--enable-recovery"), List.of("-enable-recovery", "-disable-auto-cleanup",
                            "--disable-auto-cleanup"),
                    "a rank that fails does not end the others (mpiexec.hydra's -disable-auto-cleanup);\n"
                            + "each failure is reported, and the exit status is still the first failure's",
                    (a, v) -> a.keepGoing = true)
            .value("Control", List.of("--report-pid"), List.of("-report-pid"), "-|+|FILE",
                    "print banyan's process id on stdout (-), stderr (+) or into FILE before the job\n"
                            + "starts, as mpirun's (the process to signal)",
                    (a, v) -> a.reportPid = v.equals("-") || v.equals("+") ? v : a.cwd.resolve(v).toString())
            .flag("Control", List.of("--report-state-on-timeout"), List.of("-report-state-on-timeout"),
                    "when the timeout ends the job, say which ranks were still running, by host (mpirun's)",
                    (a, v) -> a.stateOnTimeout = true)
            .value("Control", List.of("--timeout"), List.of("-timeout"), "SECONDS",
                    "end the job after SECONDS (exit status 124); default: $MPIEXEC_TIMEOUT, as Hydra and\n"
                            + "mpirun take it",
                    (a, v) -> a.timeoutMillis = Timeouts.seconds(v))
            // Open MPI's mpirun refuses root without it, so command lines from containers and CI carry it
            .flag("Control", List.of("--allow-run-as-root"), List.of("-allow-run-as-root"),
                    "accepted from mpirun's command lines: banyan runs as root without it",
                    (a, v) -> { })
            .with(t -> DaemonOptions.declareDaemons(t, a -> a.daemons))
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
            .flag("Daemons (one per host, started along a tree; see docs/multihost.md)", List.of("--report-launch"),
                    List.of(), "print phase times and, per daemon, links and messages",
                    (a, v) -> a.reportLaunch = true)
            .optional("Monitoring (see docs/comm.md)", List.of("--monitor"), List.of(), "all|external",
                    "monitor the Java ranks' messages (banyan-comm) from the start: all (default)\n"
                            + "or only user point-to-point (external); Open MPI programs: Open MPI's own\n"
                            + "monitoring components; profiles go to --monitor-out",
                    (a, v) -> a.monitor(v == null ? "all" : v))
            .value("Monitoring (see docs/comm.md)", List.of("--monitor-out"), List.of(), "DIR",
                    "where each rank writes its Open MPI-style .prof (default ./banyan-monitor);\n"
                            + "implies --monitor; banyan monitor DIR makes the matrices",
                    (a, v) -> {
                        a.monitorOut = a.cwd.resolve(v);
                        if (a.monitorScope == null) {
                            a.monitor("all");
                        }
                    })
            .value("DVM (see docs/pilot.md)", List.of("--dvm"), List.of(), "FILE",
                    "run on the persistent DVM whose URI file is FILE (banyan dvm start writes\n"
                            + "~/.banyan/dvm.uri): no daemon is started; default $BANYAN_DVM: when set,\n"
                            + "every banyan run goes to that DVM (as FLUX_URI to a Flux instance)",
                    (a, v) -> a.dvm = new DvmFiles(a.cwd.resolve(v)));
}
