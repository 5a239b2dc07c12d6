package org.banyan.cli.dvm;

import java.nio.file.Path;
import java.util.List;
import org.banyan.cli.run.DaemonOptions;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * The arguments of {@code dvm start} (and {@code serve}): where the daemons go, the URI file, an
 * elastic DVM's limits, the warm-up, the GPUs and the dashboard; and the table that declares
 * every option once (the parser, {@code --help} and README's table read it).
 */
final class StartArguments {
    final DaemonOptions daemons;
    DvmFiles files;
    boolean elastic;
    int maxNodes;
    long probeMillis;
    /** -1 until given: the default, or none for an elastic DVM. */
    int warmUp = -1;
    /** Each host's own, as its daemon finds them, until given. */
    int gpusPerHost = org.banyan.runtime.dvm.DvmHead.FOUND_GPUS;
    /** Serve the dashboard once up, here. */
    boolean dashboard;
    String dashboardBind = "127.0.0.1";
    int dashboardPort;

    StartArguments(DaemonOptions daemons, DvmFiles files) {
        this.daemons = daemons;
        this.files = files;
    }

    static final OptionTable<StartArguments> OPTIONS = new OptionTable<StartArguments>()
            .with(t -> DaemonOptions.declareHosts(t, a -> a.daemons))
            .with(t -> DaemonOptions.declareDaemons(t, a -> a.daemons))
            .value("DVM", List.of("--uri-file"), List.of("--dvm"), "FILE",
                    "where to write the DVM's contact (default $BANYAN_DVM, else ~/.banyan/dvm.uri; --dvm\n"
                            + "FILE too, as the other commands name it); the secret goes to FILE.secret (mode 0600) and the\n"
                            + "head's log to FILE.log; FILE's directory must be writable by you only (or\n"
                            + "sticky, as /tmp): clients refuse files others could replace",
                    (a, v) -> a.files = new DvmFiles(Path.of(v).toAbsolutePath()))
            .flag("DVM", List.of("--elastic"), List.of(), """
                    inside a Slurm job: give free hosts back to Slurm (scontrol update)
                    when that lets the job waiting first in Slurm's queue start, and take
                    idle hosts again (salloc) when the DVM's jobs want more""",
                    (a, v) -> a.elastic = true)
            .value("DVM", List.of("--max-nodes"), List.of(), "N", """
                    with --elastic: the DVM may grow to N hosts, asking Slurm for idle ones
                    when its jobs want more (at most the spawn tree's radix, default 32)""",
                    (a, v) -> a.maxNodes = HostListParser.positive(v, "--max-nodes"))
            .value("DVM", List.of("--elastic-period"), List.of(), "SECONDS", """
                    with --elastic: how often the DVM reads Slurm's queue and idle nodes
                    (squeue and sinfo; default 2)""",
                    (a, v) -> a.probeMillis = periodMillis(v))
            .value("DVM", List.of("--warm-up"), List.of(), "N", """
                    before start returns, run N /bin/true tasks per host (in /tmp, output
                    to /dev/null) so that the JIT has compiled the task path for the first
                    users' tasks; at most 20,000 in all, 0 for none (default 1500; none
                    with --elastic, whose hosts they would make it want)""",
                    (a, v) -> a.warmUp = HostListParser.atLeast(v, "--warm-up", 0))
            .value("DVM", List.of("--gpus-per-host"), List.of(), "N", """
                    GPUs on each host for tasks' gpus_per_rank (default: those each host's
                    daemon finds: its CUDA_VISIBLE_DEVICES, else the NVIDIA or AMD driver's);
                    a task gets its own in CUDA_VISIBLE_DEVICES""",
                    (a, v) -> a.gpusPerHost = gpuCount(v))
            .flag("Dashboard", List.of("--dashboard"), List.of(), """
                    once up, serve the dashboard (a live, read-only web page; see banyan
                    dashboard) and print its URL, token included""",
                    (a, v) -> a.dashboard = true)
            .value("Dashboard", List.of("--dashboard-bind"), List.of(), "ADDR",
                    "with --dashboard: the address to serve on (default 127.0.0.1)",
                    (a, v) -> {
                        a.dashboardBind = DashboardCommand.address(v, "--dashboard-bind");
                        a.dashboard = true;
                    })
            .value("Dashboard", List.of("--dashboard-port"), List.of(), "P",
                    "with --dashboard: the port (default: any free one)",
                    (a, v) -> {
                        a.dashboardPort = DashboardCommand.port(v, "--dashboard-port");
                        a.dashboard = true;
                    });

    private static int gpuCount(String v) throws UsageException {
        int n = HostListParser.atLeast(v, "--gpus-per-host", 0);
        if (n > org.banyan.core.pilot.NodeResources.MAX_GPUS) {
            throw new UsageException("--gpus-per-host: at most " + org.banyan.core.pilot.NodeResources.MAX_GPUS + " GPUs a host, not " + n);
        }
        return n;
    }

    /** How often an elastic DVM reads Slurm's queue unless told. */
    static final long ELASTIC_PROBE_MILLIS = 2_000;

    private static long periodMillis(String v) throws UsageException {
        double seconds;
        try {
            seconds = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--elastic-period '" + v + "' is not a number of seconds");
        }
        if (!(seconds >= 0.1 && seconds <= 86_400)) {
            throw new UsageException("--elastic-period must be between 0.1 and 86400 seconds, not " + v);
        }
        return Math.round(seconds * 1000);
    }
}
