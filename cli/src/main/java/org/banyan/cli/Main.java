package org.banyan.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.banyan.cli.dvm.DashboardCommand;
import org.banyan.cli.dvm.DvmCommand;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.UsageException;
import org.banyan.cli.place.MonitorCommand;
import org.banyan.cli.place.MonitorGather;
import org.banyan.cli.place.PlaceCommand;
import org.banyan.cli.run.RunArguments;
import org.banyan.cli.run.RunRequest;
import org.banyan.cli.sim.SimCommand;
import org.banyan.cli.tasks.CancelCommand;
import org.banyan.cli.tasks.PilotCommand;
import org.banyan.cli.tasks.SubmitCommand;
import org.banyan.cli.tasks.TasksCommand;
import org.banyan.cli.tasks.WaitCommand;
import org.banyan.core.job.RankMap;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;
import org.banyan.runtime.head.HeadDriver;
import org.banyan.runtime.os.FastExit;
import org.banyan.runtime.os.ProcessText;

/** The {@code banyan} command. */
public final class Main {
    private Main() {}

    public static void main(String[] argv) {
        org.banyan.runtime.os.TempRoot.adopt();
        StandardOutput out = StandardOutput.install();
        List<String> args = ProcessText.arguments(argv);
        int status = run(args);
        FastExit.exit(out.checked(status, args.isEmpty() || args.getFirst().startsWith("-") ? "banyan" : "banyan " + args.getFirst()));
    }

    public static int run(List<String> args) {
        try {
            return runCommand(args);
        } catch (java.nio.file.InvalidPathException e) { // a path used after parsing (--wdir, a session's directory)
            System.err.println("banyan: " + OptionParser.notAPath(null, e).getMessage());
            return 2;
        }
    }

    private static int runCommand(List<String> args) {
        if (args.isEmpty() || args.getFirst().equals("--help") || args.getFirst().equals("-h")
                || args.getFirst().equals("help")) {
            System.out.print(Help.MAIN);
            return args.isEmpty() ? 2 : 0;
        }
        if (args.getFirst().equals("--version") || args.getFirst().equals("-V")) {
            System.out.println("banyan " + version());
            return 0;
        }
        if (args.getFirst().equals(AotTraining.COMMAND) && System.getenv("BANYAN_AOT_TRAINING") != null) {
            return AotTraining.run();
        }
        if (args.getFirst().equals("sim")) {
            try {
                return SimCommand.run(args.subList(1, args.size()));
            } catch (UsageException | NumberFormatException e) {
                System.err.println("banyan sim: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("pilot")) {
            try {
                return new PilotCommand(Path.of("").toAbsolutePath()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan pilot: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("monitor")) {
            try {
                return new MonitorCommand(Path.of("").toAbsolutePath()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan monitor: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("place")) {
            try {
                return new PlaceCommand(Path.of("").toAbsolutePath()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan place: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("submit")) {
            try {
                return new SubmitCommand(ProcessText.environment(), Path.of("").toAbsolutePath()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan submit: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("wait")) {
            try {
                return new WaitCommand(ProcessText.environment()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan wait: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("tasks")) {
            try {
                return new TasksCommand(ProcessText.environment()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan tasks: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("cancel")) {
            try {
                return new CancelCommand(ProcessText.environment()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan cancel: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("dashboard")) {
            try {
                return new DashboardCommand(ProcessText.environment()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan dashboard: " + e.getMessage());
                return 2;
            }
        }
        if (args.getFirst().equals("dvm")) {
            try {
                return new DvmCommand(ProcessText.environment(), Path.of("").toAbsolutePath()).run(args.subList(1, args.size()));
            } catch (UsageException e) {
                System.err.println("banyan dvm: " + e.getMessage());
                return 2;
            }
        }
        if (!args.getFirst().equals("run")) {
            System.err.println("banyan: unknown command '" + args.getFirst() + "' (commands: run, dvm, submit, wait, tasks, cancel, dashboard, pilot, monitor, place, sim; see banyan --help)");
            return 2;
        }
        List<String> rest = args.subList(1, args.size());
        if (rest.contains("--help") || rest.contains("-h")) {
            if (rest.isEmpty() || isHelpBeforeProgram(rest)) {
                System.out.print(Help.RUN);
                return 0;
            }
        }
        if (!rest.isEmpty() && (rest.getFirst().equals("--version") || rest.getFirst().equals("-V"))) {
            System.out.println("banyan " + version());
            return 0;
        }
        RunRequest request;
        try {
            request = new RunArguments(ProcessText.environment(), Path.of("").toAbsolutePath()).parse(rest);
        } catch (UsageException e) {
            System.err.println("banyan run: " + e.getMessage());
            return 2;
        }
        if (request.reportPid() != null && !reportPid(request.reportPid())) {
            return 2;
        }
        if (request.displayAllocation()) {
            System.err.print(request.allocation());
        }
        FastExit.prepare();
        // this JVM's daemon will serve the job through PMIx: the server starts while the launch goes on
        boolean pmixHere = request.dvm() == null && request.job().pmix()
                && request.agent().inThisProcess();
        if (pmixHere) {
            org.banyan.pmix.PmixServer.startSoon(Path.of(System.getProperty("java.io.tmpdir")));
        }
        List<org.banyan.core.job.AppContext> apps = request.dvm() != null ? request.dvmJob().apps() : request.job().apps();
        Path monitored = MonitorGather.directory(apps);
        MonitorGather.before(monitored);
        int ranks = apps.stream().mapToInt(org.banyan.core.job.AppContext::count).sum();
        int code;
        if (request.dvm() != null) {
            code = runOnDvm(request);
        } else {
            try {
                code = new HeadDriver(request.job(), RankMap.of(request.job()), request.settings(), request.output(),
                        request.agent(), request.topology(), request.routing()).run();
            } catch (Exception e) {
                System.err.println("banyan run: internal error: " + e);
                return 1;
            } finally {
                if (pmixHere) {
                    org.banyan.pmix.PmixServer.shutdown(); // its files, when the daemon did not need it
                }
            }
        }
        MonitorGather.after(monitored, ranks);
        return code;
    }

    /** mpirun's {@code --report-pid}: this process's id on stdout, stderr or in a file; false if the file cannot be written. */
    private static boolean reportPid(String where) {
        String pid = Long.toString(ProcessHandle.current().pid());
        switch (where) {
            case "-" -> {
                System.out.println(pid);
                System.out.flush();
            }
            case "+" -> System.err.println(pid);
            default -> {
                try {
                    java.nio.file.Files.writeString(Path.of(where), pid + "\n");
                } catch (IOException e) {
                    System.err.println("banyan run: --report-pid: cannot write '" + where + "' ("
                            + org.banyan.runtime.os.FileErrors.reason(e) + ")");
                    return false;
                }
            }
        }
        return true;
    }

    private static int runOnDvm(RunRequest request) {
        try (DvmClient client = DvmClient.connect(request.dvm(), "banyan run")) {
            return client.run(request.dvmJob(), request.output());
        } catch (DvmClient.Unreachable e) { // a session's BANYAN_DVM may outlive its DVM: say where the file came from
            System.err.println("banyan run: " + e.getMessage() + (request.dvmFromEnvironment()
                    ? "; " + DvmFiles.VARIABLE + " names it: unset " + DvmFiles.VARIABLE + " to run with daemons of its own" : ""));
            return 2;
        } catch (IOException e) {
            System.err.println(DvmClient.lost("banyan run", e));
            return 1;
        }
    }

    private static boolean isHelpBeforeProgram(List<String> rest) {
        for (String a : rest) {
            if (a.equals("--help") || a.equals("-h")) {
                return true;
            }
            if (!a.startsWith("-")) {
                return false;
            }
        }
        return false;
    }

    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("/banyan-version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
