package org.banyan.cli.tasks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.cli.dvm.DvmSubmitCommand;
import org.banyan.cli.options.ExportedVariable;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.core.pilot.TaskDependency;
import org.banyan.pilot.Session;
import org.banyan.pilot.TaskDescription;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;
import org.banyan.runtime.os.UserSignals;

/**
 * {@code banyan submit}: tasks for a DVM from the shell, one command or a file of them, followed
 * to their end with a progress bar on a terminal and a summary; exit status 0 only if every task
 * succeeded. The tasks belong to this command: Ctrl-C cancels them. This class reads the
 * command line and the task file; {@link BagRun} runs and follows the tasks.
 */
public final class SubmitCommand {
    private final Map<String, String> environment;
    private final Path cwd;

    public SubmitCommand(Map<String, String> environment, Path cwd) {
        this.environment = environment;
        this.cwd = cwd;
    }

    static final class Arguments {
        Path dvmFile;
        DvmFiles dvm;
        /** --tasks as given: a name of bytes, resolved against the submitting shell's directory where it is read. */
        String tasks;
        Path session;
        int cores = 1;
        int ranks = 1;
        int gpus;
        boolean mpi;
        double timeout;
        int priority;
        boolean quiet;
        boolean keepEmptyOutput;
        boolean detach;
        /** --cc: a copy of the command for each id, or null. */
        List<Integer> copies;
        /** --output, --error, --input: the task's files, absolute ({cc} still in them), or null. */
        String output;
        String error;
        String input;
        /** --chdir: where the command's task starts, or null for here. */
        String chdir;
        /** --name: the task's name for people, or null. */
        String name;
        /** --dependency: what every task waits for. */
        final List<TaskDependency> dependencies = new ArrayList<>();
        /**
         * The options given that describe the one command's task, with the task file field that
         * says the same per line: a task file's tasks ignored them without a word.
         */
        final Map<String, String> commandOnly = new java.util.LinkedHashMap<>();
        final Map<String, String> exports = new java.util.LinkedHashMap<>();
        /** The command's environment, for -x VAR. */
        final Map<String, String> environment;

        Arguments(Map<String, String> environment) {
            this.environment = environment;
        }

        <V> V commandOnly(String option, String field, V value) {
            commandOnly.put(option, field);
            return value;
        }
    }

    static final OptionTable<Arguments> OPTIONS = new OptionTable<Arguments>()
            .value("Submit", List.of("--dvm"), List.of(), "FILE", "the DVM's URI file (default $BANYAN_DVM, else ~/.banyan/dvm.uri)",
                    (a, v) -> a.dvmFile = Path.of(v))
            .value("Submit", List.of("--tasks"), List.of(), "FILE",
                    "one task per line, as JSON with RADICAL-Pilot's field names (see docs/pilot.md); - for stdin",
                    (a, v) -> a.tasks = v)
            .value("Submit", List.of("--session"), List.of(), "DIR",
                    "the session's directory: sandboxes and the profile (default banyan.session.DATE-PID here)",
                    (a, v) -> a.session = Path.of(v))
            .value("Submit", List.of("--cores"), List.of("-c", "--cores-per-task", "--cpus-per-task"), "N", "cores per rank of the task (default 1)",
                    (a, v) -> a.cores = a.commandOnly("--cores", "cores_per_rank", HostListParser.positive(v, "--cores")))
            .value("Submit", List.of("--gpus"), List.of("-g", "--gpus-per-task"), "N",
                    "GPUs per rank of the task (default 0; the DVM's, see dvm start --gpus-per-host)",
                    (a, v) -> a.gpus = a.commandOnly("--gpus", "gpus_per_rank", HostListParser.atLeast(v, "--gpus", 0)))
            .value("Submit", List.of("--ranks"), List.of("-n", "--ntasks"), "N", "ranks of the task: N copies of the command, or with --mpi an MPI job (default 1)",
                    (a, v) -> a.ranks = a.commandOnly("--ranks", "ranks", HostListParser.positive(v, "--ranks")))
            .flag("Submit", List.of("--mpi"), List.of(), "the ranks are an MPI job, wired up as banyan run's (PMIx for Open MPI, else PMI)",
                    (a, v) -> a.mpi = a.commandOnly("--mpi", "mode", true))
            .value("Submit", List.of("--timeout"), List.of(), "SECONDS", "end the task after that long (it FAILS)",
                    (a, v) -> a.timeout = a.commandOnly("--timeout", "timeout", seconds(v)))
            .value("Submit", List.of("--time-limit"), List.of("-t"), "DURATION",
                    "--timeout as flux submit -t and srun -t take it: minutes, or 30s, 5m, 2h, 1d,\n"
                            + "or M:SS, H:MM:SS",
                    (a, v) -> a.timeout = a.commandOnly("--time-limit", "timeout", timeLimit(v)))
            .value("Submit", List.of("--priority"), List.of(), "P", "higher runs first (default 0)",
                    (a, v) -> a.priority = a.commandOnly("--priority", "priority", HostListParser.atLeast(v, "--priority", 0)))
            .value("Submit", List.of("--chdir"), List.of("-D", "--cwd"), "DIR",
                    "the directory the task starts in (default: this one, as srun's and flux submit's;\n"
                            + "a task file's tasks start in their sandboxes); its output files stay in its sandbox",
                    (a, v) -> a.chdir = a.commandOnly("--chdir", "workdir", v))
            .value("Submit", List.of("--output"), List.of("-o"), "FILE",
                    "the task's stdout file (default UID.out in its sandbox); relative to this directory;\n"
                            + "with --cc, {cc} in it becomes the id (and must be there)",
                    (a, v) -> a.output = a.commandOnly("--output", "stdout", v))
            .value("Submit", List.of("--error"), List.of("-e"), "FILE", "its stderr file, as --output (default UID.err)",
                    (a, v) -> a.error = a.commandOnly("--error", "stderr", v))
            .value("Submit", List.of("--input"), List.of("-i"), "FILE",
                    "the file its stdin reads (default none; of several ranks, rank 0 reads it); relative to this directory",
                    (a, v) -> a.input = a.commandOnly("--input", "stdin", v))
            .value("Submit", List.of("--name"), List.of("--job-name", "-J"), "NAME",
                    "a name for people, shown with its uid where it is reported",
                    (a, v) -> a.name = a.commandOnly("--name", "name", v))
            .value("Submit", List.of("-x"), List.of("--env"), "VAR[=VALUE]",
                    "give every task VAR (with its value here, or VALUE); a task file's own value wins",
                    (a, v) -> {
                        ExportedVariable x = ExportedVariable.parse(v, a.environment);
                        a.exports.put(x.name(), x.value());
                    })
            .value("Submit", List.of("--cc"), List.of(), "IDS",
                    "a task for each id (1-100, 1,5-9), as flux submit --cc: {cc} in the command\n"
                            + "and in -x values becomes the id, and each task gets BANYAN_CC=id",
                    (a, v) -> a.copies = TaskIds.parse(List.of(v), "an id or a range of them (like 7 or 1-100)")
                            .stream().distinct().sorted().toList())
            .value("Submit", List.of("--dependency"), List.of("-d"), "DEP",
                    "every task waits for this, as Slurm's and Flux's --dependency: afterok:IDS (ended\n"
                            + "DONE), afterany:IDS, afternotok:IDS, after:IDS (started); IDS as --detach prints them\n"
                            + "(7:9, 3-9,12); one that can no longer be met fails the task. Repeat it, or join with commas",
                    (a, v) -> {
                        try {
                            a.dependencies.addAll(TaskDependency.parse(v));
                        } catch (IllegalArgumentException e) {
                            throw new UsageException("--dependency " + e.getMessage());
                        }
                    })
            .flag("Submit", List.of("--quiet"), List.of(), "no progress bar", (a, v) -> a.quiet = true)
            .flag("Submit", List.of("--keep-empty-output"), List.of(),
                    "keep the empty TASK.out and TASK.err (and sandbox) of a task that wrote nothing; by default they go",
                    (a, v) -> a.keepEmptyOutput = true)
            .flag("Submit", List.of("--detach"), List.of(),
                    "print the tasks' ids and return; they run on (banyan wait, banyan cancel); no output staging",
                    (a, v) -> a.detach = true);

    static final String HELP = """
            Usage: banyan submit [OPTIONS] -- COMMAND [ARGS...]
                   banyan submit [OPTIONS] --tasks FILE

            Run tasks on a DVM (banyan dvm start) and wait for them: a progress bar on a
            terminal, then a summary. Exit status 0 only if every task succeeded; 2 for bad
            input (a bad task line is named by its number and field; no task starts).

            %s""".formatted(OPTIONS.help());

    private static double seconds(String v) throws UsageException {
        try {
            double s = Double.parseDouble(v);
            if (s > 0) {
                return s;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("--timeout must be a positive number of seconds, got '" + v + "'");
    }

    /**
     * A time limit as Flux's and Slurm's users write it: a bare number is minutes (both), a
     * suffix s, m, h or d says the unit (Flux's duration), colons are Slurm's M:SS and H:MM:SS.
     */
    static double timeLimit(String v) throws UsageException {
        String bad = "--time-limit takes minutes, a duration like 30s, 5m, 2h or 1d, or M:SS or H:MM:SS, got '" + v + "'";
        double seconds;
        if (v.contains(":")) {
            try {
                seconds = DvmSubmitCommand.duration("--time-limit", v) / 1000.0; // dvm submit --time's M:SS and H:MM:SS
            } catch (UsageException e) {
                throw new UsageException(bad);
            }
        } else {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([smhd]?)").matcher(v);
            if (!m.matches()) {
                throw new UsageException(bad);
            }
            seconds = Double.parseDouble(m.group(1)) * switch (m.group(2)) { // digits only: it parses
                case "s" -> 1;
                case "h" -> 3600;
                case "d" -> 86_400;
                default -> 60; // m, or none: minutes
            };
        }
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new UsageException(bad);
        }
        return seconds;
    }

    public int run(List<String> args) throws UsageException {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return 0;
        }
        Arguments a = new Arguments(environment);
        List<TaskDescription> descriptions = descriptions(a, options(args, a)); // bad input: nothing has started
        boolean bar = !a.quiet && System.console() != null;
        Path session = a.session != null ? a.session : Session.defaultDir(cwd);
        try (DvmClient client = DvmClient.connect(a.dvm, "banyan submit")) {
            // reachable, and the secret is right: nothing has started yet
        } catch (DvmClient.Unreachable e) {
            System.err.println("banyan submit: " + e.getMessage());
            return 2;
        }
        return new BagRun(a.dvm, session, cwd, System.err, bar, UserSignals::install).keepEmptyOutput(a.keepEmptyOutput)
                .run(descriptions, a.detach, System.out);
    }

    /**
     * The options into {@code a}, paths taken from this command's directory; returns the command
     * after {@code --}, checked against {@code --tasks} (one or the other).
     */
    private List<String> options(List<String> args, Arguments a) throws UsageException {
        int dash = args.indexOf("--");
        List<String> options = dash < 0 ? args : args.subList(0, dash);
        List<String> command = dash < 0 ? List.of() : args.subList(dash + 1, args.size());
        OptionParser.parse(OPTIONS, a, options, "banyan submit --help");
        a.dvm = a.dvmFile != null ? new DvmFiles(cwd.resolve(a.dvmFile))
                : DvmFiles.defaultFor(environment, cwd);
        if (a.session != null) {
            a.session = cwd.resolve(a.session);
        }
        if (a.tasks != null && !command.isEmpty()) {
            throw new UsageException("give either --tasks FILE or a command after --, not both");
        }
        if (a.tasks != null && !a.commandOnly.isEmpty()) {
            throw new UsageException(String.join(", ", a.commandOnly.keySet()) + " describe" + (a.commandOnly.size() == 1 ? "s" : "")
                    + " the command after --; with --tasks each line gives its own ("
                    + String.join(", ", new java.util.LinkedHashSet<>(a.commandOnly.values())) + ")");
        }
        if (a.tasks != null && a.copies != null) {
            throw new UsageException("--cc copies the command after --; a task file lists each task itself");
        }
        for (String[] f : new String[][] {{"--output", a.output}, {"--error", a.error}}) {
            if (f[1] != null && a.copies != null && a.copies.size() > 1 && !f[1].contains(Copies.CC)) {
                throw new UsageException(f[0] + " " + f[1] + ": every copy of --cc would write that one file; put {cc} in it");
            }
        }
        // the command starts here unless told otherwise, as under srun, sbatch and flux submit
        a.chdir = cwd.resolve(a.chdir == null ? "" : a.chdir).toString();
        if (a.tasks == null && !Files.isDirectory(Path.of(a.chdir))) {
            throw new UsageException("--chdir '" + a.chdir + "' is not a directory");
        }
        // the submitter's directory, as sbatch -o and flux --output mean them (a task's own would be its sandbox)
        a.output = a.output == null ? null : cwd.resolve(a.output).toString();
        a.error = a.error == null ? null : cwd.resolve(a.error).toString();
        a.input = a.input == null ? null : cwd.resolve(a.input).toString();
        if (a.tasks == null && command.isEmpty()) {
            throw new UsageException("nothing to run: give a command after -- or --tasks FILE (see banyan submit --help)");
        }
        return command;
    }

    private static boolean isStdin(String tasks) {
        return tasks.equals("-");
    }

    /** The tasks that {@code a} and {@code command} describe: the task file's, or the one command. */
    private List<TaskDescription> descriptions(Arguments a, List<String> command) throws UsageException {
        if (a.tasks != null) {
            TaskFile.Tasks file = isStdin(a.tasks) ? TaskFile.read(System.in, "stdin") : TaskFile.read(org.banyan.pmix.RawPaths.resolve(cwd, a.tasks));
            if (!a.exports.isEmpty()) {
                file.environmentDefaults(a.exports);
            }
            if (!a.dependencies.isEmpty()) {
                file.dependencies(a.dependencies);
            }
            if (a.detach && file.anyOutputStaging()) {
                throw new UsageException("output staging is done by the submitting command: drop --detach or the task's output_staging");
            }
            return file;
        }
        if (command.getFirst().isBlank()) {
            throw new UsageException("the command after -- is empty");
        }
        TaskDescription one = task(a, command, Map.copyOf(a.exports), null); // checked here, whatever --cc says
        return a.copies == null ? List.of(one) : new Copies(a, command, a.copies); // a command has no output staging
    }

    /**
     * {@code --cc}: the command's task for each id, {@code {cc}} replaced by it in the command and
     * the {@code -x} values and {@code BANYAN_CC} set, each made when the bag asks for it, as a
     * task file's lines are ({@link TaskFile.Tasks}): a bag hands its tasks over a slice at a time.
     */
    static final class Copies extends java.util.AbstractList<TaskDescription> implements java.util.RandomAccess, BagTasks {
        /** What flux submit --cc replaces with each copy's id. */
        static final String CC = "{cc}";

        private final Arguments a;
        private final List<String> command;
        private final List<Integer> ids;

        Copies(Arguments a, List<String> command, List<Integer> ids) {
            this.a = a;
            this.command = List.copyOf(command);
            this.ids = ids;
        }

        @Override
        public TaskDescription get(int i) {
            String cc = Integer.toString(ids.get(i));
            Map<String, String> env = new java.util.LinkedHashMap<>();
            a.exports.forEach((name, value) -> env.put(name, value.replace(CC, cc)));
            env.put("BANYAN_CC", cc);
            try {
                return task(a, command.stream().map(w -> w.replace(CC, cc)).toList(), env, cc);
            } catch (UsageException e) { // an id changes no number the check looks at
                throw new IllegalStateException(e.getMessage(), e);
            }
        }

        @Override
        public int size() {
            return ids.size();
        }

        @Override
        public boolean onePriority() {
            return true;
        }

        @Override
        public java.util.Set<Integer> dependencyIds() {
            return TaskDependency.ids(a.dependencies);
        }
    }

    /** The task of {@code command} with the options of {@code a} and the variables {@code env}; {@code cc} its --cc id, or null. */
    private static TaskDescription task(Arguments a, List<String> command, Map<String, String> env, String cc)
            throws UsageException {
        TaskDescription d = new TaskDescription().executable(command.getFirst())
                .arguments(command.subList(1, command.size())).coresPerRank(a.cores).gpusPerRank(a.gpus).ranks(a.ranks)
                .mode(a.mpi ? TaskDescription.Mode.MPI : TaskDescription.Mode.EXECUTABLE).timeout(a.timeout)
                .priority(a.priority).dependencies(a.dependencies).name(a.name)
                .stdout(withId(a.output, cc)).stderr(withId(a.error, cc)).stdin(withId(a.input, cc)).workdir(a.chdir);
        try {
            d.check();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return d.environmentDefaults(env);
    }

    private static String withId(String file, String cc) {
        return file == null || cc == null ? file : file.replace(Copies.CC, cc);
    }

}
