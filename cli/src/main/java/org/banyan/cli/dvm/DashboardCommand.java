package org.banyan.cli.dvm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * {@code banyan dashboard}: has a running DVM serve its dashboard (a read-only web page of its
 * hosts, jobs, queue, tasks and decisions, live) and prints the URL that opens it, token
 * included. The token is made here from the DVM's secret: it is printed once, to this command's
 * standard output, never written to a file or the DVM's log.
 */
public final class DashboardCommand {
    /** Where to serve it. */
    static final class Arguments {
        DvmFiles files;
        boolean dvmGiven;
        Path timeline;
        String bind = "127.0.0.1";
        int port;
    }

    public static final OptionTable<Arguments> OPTIONS = new OptionTable<Arguments>()
            .value("Dashboard", List.of("--dvm"), List.of("--uri-file"), "FILE", "the DVM's URI file (default $BANYAN_DVM, else ~/.banyan/dvm.uri)",
                    (a, v) -> {
                        a.files = new DvmFiles(Path.of(v).toAbsolutePath());
                        a.dvmGiven = true;
                    })
            .value("Dashboard", List.of("--timeline"), List.of(), "DIR",
                    "no DVM: show the timelines banyan sim workload --timeline DIR wrote, served\n"
                            + "from this command until Ctrl-C",
                    (a, v) -> a.timeline = Path.of(v).toAbsolutePath())
            .value("Dashboard", List.of("--bind"), List.of(), "ADDR",
                    "the address to serve on (default 127.0.0.1: this host only; 0.0.0.0 for every\n"
                            + "interface, where the token is all that keeps others out)",
                    (a, v) -> a.bind = address(v, "--bind"))
            .value("Dashboard", List.of("--port"), List.of(), "P", "the port (default: any free one)",
                    (a, v) -> a.port = port(v, "--port"));

    public static final String HELP = """
            Usage: banyan dashboard [--dvm FILE] [--bind ADDR] [--port P]
                   banyan dashboard --timeline DIR [--bind ADDR] [--port P]

            Has the DVM serve its dashboard, a live, read-only page of its hosts and cores,
            jobs, queue and resizes, tasks (counts, starts and ends per second, the longest
            running and the failed) and its decisions, and prints its URL. The URL holds a
            token made from the DVM's secret: whoever may use the DVM may watch it, nobody
            else. Asked again, the DVM names the dashboard it serves (docs/dashboard.md).

            """ + OPTIONS.help();

    private final Map<String, String> environment;

    public DashboardCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    public int run(List<String> args) throws UsageException {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return 0;
        }
        Arguments a = new Arguments();
        a.files = DvmFiles.defaultFor(environment, java.nio.file.Path.of("").toAbsolutePath());
        OptionParser.parse(OPTIONS, a, args, "banyan dashboard --help");
        if (a.timeline != null) {
            if (a.dvmGiven) {
                throw new UsageException("--timeline shows a simulator's files, not a DVM: give --timeline or --dvm, not both");
            }
            return serveTimeline(a);
        }
        try (DvmClient client = DvmClient.connect(a.files, "banyan dashboard")) {
            System.out.println(client.dashboard(a.bind, a.port));
            return 0;
        } catch (DvmClient.Unreachable e) {
            System.err.println("banyan dashboard: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println("banyan dashboard: " + DvmClient.why(e));
            return 1;
        }
    }

    /** Serves the timelines until this process is told to end (Ctrl-C, SIGTERM). */
    private static int serveTimeline(Arguments a) {
        org.banyan.runtime.dvm.TimelineView view;
        try {
            view = org.banyan.runtime.dvm.TimelineView.serve(a.timeline, a.bind, a.port);
        } catch (IOException e) {
            System.err.println("banyan dashboard: " + e.getMessage());
            return 2;
        }
        java.util.concurrent.CountDownLatch over = new java.util.concurrent.CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            view.close();
            over.countDown();
        }));
        System.out.println(view.url());
        System.out.flush();
        System.err.println("banyan dashboard: serving the timelines of " + a.timeline + " until Ctrl-C");
        try {
            over.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** An IP address as written (no name look-up: the dashboard binds where it is told). */
    static String address(String v, String option) throws UsageException {
        try {
            java.net.InetAddress.ofLiteral(v); // a literal only: no name is looked up
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + " '" + v + "' is not an IP address (127.0.0.1, 0.0.0.0, ::1)");
        }
        return v;
    }

    static int port(String v, String option) throws UsageException {
        int p;
        try {
            p = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " '" + v + "' is not a port number");
        }
        if (p < 0 || p > 65_535) {
            throw new UsageException(option + " " + v + " is not a port number (0 to 65535)");
        }
        return p;
    }
}
