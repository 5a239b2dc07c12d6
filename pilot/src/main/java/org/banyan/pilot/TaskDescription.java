package org.banyan.pilot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.pilot.DependencyBook;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskDependency;

/**
 * What a task is, with the fields RADICAL-Pilot's users know (camelCase here, snake_case in task
 * files): the executable and its arguments, environment, sandbox, ranks, cores and GPUs per
 * rank, pre- and post-exec commands, stdin/stdout/stderr files, input and output staging, priority,
 * timeout, restartable, the colocate and exclusive tags, and a mode ({@code executable}, or
 * {@code mpi} for ranks wired up across hosts as {@code banyan run} wires its own; an executable
 * task of several ranks is that many copies). Unset fields keep
 * their defaults: one rank of one core, files named after the uid in a sandbox of the session.
 */
public final class TaskDescription {
    public enum Mode { EXECUTABLE, MPI, FUNCTION }

    // Unset lists and the map are the shared empty ones (nothing changes them in place): a
    // bag's descriptions are all in memory at once, and six collections each, mostly empty,
    // were a quarter of what a 100,000-task bag kept alive (the young collection that copied
    // them paused the DVM's JVM for 50-75 ms in the bag's first 0.2 s).
    String uid;
    String name;
    String executable;
    List<String> arguments = List.of();
    Map<String, String> environment = Map.of();
    String sandbox;
    /** Where it starts when not in its sandbox ({@link #workdir(String)}). */
    String workdir;
    String stdout;
    String stderr;
    String stdin;
    List<String> preExec = List.of();
    /** Set on the stand-in description of a task followed by {@link TaskManager#attach}: what it runs is not known here. */
    boolean attached;

    static TaskDescription attached() {
        TaskDescription d = new TaskDescription().executable("(attached)");
        d.attached = true;
        return d;
    }

    /** The environment it enters first ({@link #namedEnv}), or null. */
    String namedEnv;

    /**
     * Enters the environment {@code name} prepared on its pilot ({@link Pilot#prepareEnv}) before
     * its own {@code pre_exec}, as RADICAL-Pilot's {@code named_env}. A task sent to a pilot that
     * has not prepared it is FAILED, saying so.
     */
    public TaskDescription namedEnv(String name) {
        namedEnv = name;
        return this;
    }

    /** Whether its arguments go through a shell, as RADICAL-Pilot's do ({@link #shell(boolean)}). */
    boolean shell;
    List<String> postExec = List.of();
    int ranks = 1;
    int coresPerRank = 1;
    int gpusPerRank;
    int priority;
    double timeoutSeconds;
    boolean restartable;
    boolean stageOnError;
    String colocate;
    boolean exclusive;
    /** The uid of the pilot it must run on, or null for any that can run it. */
    String pilot;
    List<TaskDependency> dependencies = List.of();
    /** Tasks of the same manager it waits for ({@link #after}). */
    List<DependencyBook.Condition<Task>> after = List.of();
    Mode mode = Mode.EXECUTABLE;
    SerializableCallable<?> function;
    List<Staging> inputStaging = List.of();
    List<Staging> outputStaging = List.of();

    /**
     * A function task: {@code fn} runs in one of the task manager's worker JVMs
     * ({@link TaskManager#functionPool}); {@link Task#result()} has what it returned.
     */
    public TaskDescription function(SerializableCallable<?> fn) {
        function = fn;
        mode = Mode.FUNCTION;
        return this;
    }

    public TaskDescription executable(String e) {
        executable = e;
        return this;
    }

    public TaskDescription arguments(String... a) {
        arguments = List.of(a);
        return this;
    }

    public TaskDescription arguments(List<String> a) {
        arguments = a.isEmpty() ? List.of() : new ArrayList<>(a);
        return this;
    }

    public TaskDescription environment(String name, String value) {
        if (!(environment instanceof LinkedHashMap)) {
            environment = new LinkedHashMap<>(environment);
        }
        environment.put(name, value);
        return this;
    }

    /**
     * Adds {@code variables} to this task's environment, but not over the ones it sets itself:
     * what {@code banyan submit -x} gives every task of a file. A task with no variable of its
     * own shares the map, so pass an unmodifiable one.
     */
    public TaskDescription environmentDefaults(Map<String, String> variables) {
        if (environment.isEmpty()) {
            environment = variables;
        } else if (!variables.isEmpty()) {
            Map<String, String> merged = new LinkedHashMap<>(variables);
            merged.putAll(environment);
            environment = merged;
        }
        return this;
    }

    public TaskDescription uid(String u) {
        uid = u;
        return this;
    }

    /**
     * Runs the task on the pilot of {@code uid} ({@link Pilot#uid()}) only, as RADICAL-Pilot's
     * {@code pilot} field: late binding then waits for that pilot, and the task fails if it is
     * over, or not one of the manager's once all of them are up. Null (the default): any pilot
     * of the manager that can run it.
     */
    public TaskDescription pilot(String uid) {
        pilot = uid;
        return this;
    }

    /**
     * What must happen to other tasks of the DVM it runs on before it is scheduled, as Slurm's
     * and Flux's {@code --dependency}: {@code afterok:7}, {@code afterany:7:9},
     * {@code afterok:7,afternotok:9} (see {@link TaskDependency}). The ids are the DVM's
     * ({@link Task#dvmId()}, or what {@code banyan submit --detach} printed), so with several
     * pilots the task should name its pilot ({@link #pilot}). One that can no longer be met
     * fails the task; while it waits the task is AGENT_SCHEDULING_PENDING.
     *
     * @throws IllegalArgumentException naming the part that is not a dependency
     */
    public TaskDescription dependencies(String specs) {
        dependencies = TaskDependency.parse(specs);
        return this;
    }

    /** As {@link #dependencies(String)}, parsed already. */
    public TaskDescription dependencies(List<TaskDependency> list) {
        dependencies = List.copyOf(list);
        return this;
    }

    public List<TaskDependency> dependencies() {
        return dependencies;
    }

    /**
     * Goes to a pilot only once every task of {@code tasks} has ended DONE (after its output
     * staging): Slurm's and Flux's {@code afterok}, for tasks of the same task manager. One of them
     * FAILED or CANCELED fails this task, with the reason, and the tasks that wait on it in turn.
     * Until then the task waits in its manager, TMGR_SCHEDULING_PENDING. Adds to what was asked
     * before.
     */
    public TaskDescription after(Task... tasks) {
        return after(TaskDependency.Kind.AFTER_OK, tasks);
    }

    /** The tasks of its manager it waits for, and how ({@link #after}). */
    public List<DependencyBook.Condition<Task>> afterTasks() {
        return after;
    }

    /**
     * As {@link #after(Task...)}, with another condition: {@code AFTER_ANY} (ended, however),
     * {@code AFTER_NOT_OK} (ended FAILED or CANCELED), {@code AFTER} (started, or ended without
     * starting).
     */
    public TaskDescription after(TaskDependency.Kind kind, Task... tasks) {
        List<DependencyBook.Condition<Task>> all = new ArrayList<>(after);
        for (Task t : tasks) {
            all.add(new DependencyBook.Condition<>(java.util.Objects.requireNonNull(kind, "kind"),
                    java.util.Objects.requireNonNull(t, "a task to wait for")));
        }
        after = List.copyOf(all);
        return this;
    }

    /** A name for people, as RADICAL-Pilot's: shown next to the uid where a task is reported; any text, not unique. */
    public TaskDescription name(String n) {
        name = n;
        return this;
    }

    public String name() {
        return name;
    }

    public TaskDescription sandbox(String s) {
        sandbox = s;
        return this;
    }

    /**
     * The directory the task starts in, when not its sandbox (Banyan's; RADICAL-Pilot starts a
     * task in its sandbox): what {@code srun -D}, {@code sbatch --chdir} and HyperQueue's
     * {@code --cwd} set, and where {@code banyan submit -- CMD} starts its tasks. Relative paths
     * are from the session's base. The sandbox still holds its stdout and stderr files (relative
     * {@link #stdout}, {@link #stderr} and {@link #stdin} are in it) and its staged files, and is
     * made by the task manager, so the pilot's hosts must see it as this one does (a shared file
     * system, as the directory itself needs); {@code BANYAN_TASK_SANDBOX} names the sandbox.
     */
    public TaskDescription workdir(String dir) {
        workdir = dir;
        return this;
    }

    public TaskDescription stdout(String f) {
        stdout = f;
        return this;
    }

    public TaskDescription stderr(String f) {
        stderr = f;
        return this;
    }

    /**
     * A file the task's standard input reads (relative paths are in its sandbox, where input
     * staging puts files); none: {@code /dev/null}. Executable tasks only.
     */
    public TaskDescription stdin(String f) {
        stdin = f;
        return this;
    }

    /**
     * Its executable and arguments run by {@code /bin/sh} as RADICAL-Pilot's launch script runs
     * them: each argument in double quotes (its {@code $VARIABLES}, such as {@code $RP_TASK_ID},
     * expanded, but not split nor globbed), one already in single quotes as it is, double quotes
     * inside escaped. Without it (the default) arguments reach the program as given, as
     * {@code srun} and {@code flux run} pass them.
     */
    public TaskDescription shell(boolean asRadicalPilotDoes) {
        shell = asRadicalPilotDoes;
        return this;
    }

    public TaskDescription preExec(String... commands) {
        preExec = List.of(commands);
        return this;
    }

    public TaskDescription postExec(String... commands) {
        postExec = List.of(commands);
        return this;
    }

    public TaskDescription ranks(int n) {
        ranks = n;
        return this;
    }

    public TaskDescription coresPerRank(int n) {
        coresPerRank = n;
        return this;
    }

    public TaskDescription gpusPerRank(int n) {
        gpusPerRank = n;
        return this;
    }

    public TaskDescription priority(int p) {
        priority = p;
        return this;
    }

    public int priority() {
        return priority;
    }

    /**
     * Whether all of {@code descriptions} have one priority: then their order is the order they
     * run in, and they may be made and sent a part at a time without a later one missing its turn.
     */
    public static boolean onePriority(List<TaskDescription> descriptions) {
        return descriptions.stream().allMatch(d -> d.priority == descriptions.getFirst().priority);
    }

    public TaskDescription timeout(double seconds) {
        timeoutSeconds = seconds;
        return this;
    }

    public TaskDescription restartable(boolean r) {
        restartable = r;
        return this;
    }

    /**
     * Output staging for a task that FAILED too (RADICAL-Pilot's {@code stage_on_error}): the
     * files it left behind come out as they would if it had succeeded; a file it did not write
     * adds to its failure, which stays the task's own.
     */
    public TaskDescription stageOnError(boolean s) {
        stageOnError = s;
        return this;
    }

    public TaskDescription colocate(String tag) {
        colocate = tag;
        return this;
    }

    public TaskDescription exclusive(boolean e) {
        exclusive = e;
        return this;
    }

    public TaskDescription mode(Mode m) {
        mode = m;
        return this;
    }

    public TaskDescription inputStaging(Staging... s) {
        inputStaging = List.of(s);
        return this;
    }

    public boolean hasOutputStaging() {
        return !outputStaging.isEmpty();
    }

    public TaskDescription outputStaging(Staging... s) {
        outputStaging = List.of(s);
        return this;
    }

    public String executable() {
        return executable;
    }

    /**
     * Throws {@link IllegalArgumentException} naming the field when no task can be made of this
     * description. Checked when it is submitted: a bad one found later, when its batch was sent,
     * ended the sending thread, and every task of that manager waited for ever.
     */
    public void check() {
        // the uid names the task's sandbox in the session's directory, and its output files there:
        // '../x' put them outside it, 'a/b' in a directory nobody made
        if (uid != null && (uid.isEmpty() || uid.equals(".") || uid.equals("..") || uid.indexOf('/') >= 0 || uid.indexOf('\0') >= 0)) {
            throw new IllegalArgumentException("a task's uid names its sandbox in the session's directory: '"
                    + uid.replace("\0", "\\0") + "' cannot (no '/', NUL, '.' or '..', and not empty)");
        }
        if (mode == Mode.FUNCTION) {
            checkFunction();
            return;
        }
        if (executable == null || executable.isBlank()) {
            throw new IllegalArgumentException("a task needs an executable (or a function)");
        }
        new SlotRequest(ranks, coresPerRank, gpusPerRank, colocate, exclusive); // what the agent is sent, checked now
        if (!(timeoutSeconds >= 0) || Double.isInfinite(timeoutSeconds)) {
            throw new IllegalArgumentException("a task's timeout is 0 (none) or a number of seconds, got " + timeoutSeconds);
        }
        // A C string ends at its first NUL: the process would get less than was asked, silently.
        noNul("executable", executable);
        for (String a : arguments) {
            if (a == null) {
                throw new IllegalArgumentException("a task's arguments cannot be null: " + arguments);
            }
            noNul("arguments", a);
        }
        for (Map.Entry<String, String> e : environment.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new IllegalArgumentException("a task's environment cannot hold null: " + e.getKey() + "=" + e.getValue());
            }
            if (e.getKey().isEmpty() || e.getKey().indexOf('=') >= 0) {
                throw new IllegalArgumentException("'" + e.getKey() + "' cannot be the name of an environment variable");
            }
            noNul("environment", e.getKey());
            noNul("environment", e.getValue());
        }
        for (String c : preExec) {
            noNul("pre_exec", c);
        }
        for (String c : postExec) {
            noNul("post_exec", c);
        }
        noNul("sandbox", sandbox);
        noNul("workdir", workdir);
        noNul("stdout", stdout);
        noNul("stderr", stderr);
        noNul("stdin", stdin);
    }

    /**
     * A function task runs in a worker JVM of the pool, one call at a time on the worker's one
     * core: what describes a process does not apply to it, and was dropped without a word.
     */
    private void checkFunction() {
        if (function == null) {
            throw new IllegalArgumentException("a function task needs its function (TaskDescription.function)");
        }
        List<String> given = new ArrayList<>();
        addIf(given, executable != null, "executable");
        addIf(given, !arguments.isEmpty(), "arguments");
        addIf(given, !environment.isEmpty(), "environment");
        addIf(given, sandbox != null, "sandbox");
        addIf(given, workdir != null, "workdir");
        addIf(given, stdout != null, "stdout");
        addIf(given, stderr != null, "stderr");
        addIf(given, stdin != null, "stdin");
        addIf(given, !preExec.isEmpty(), "preExec");
        addIf(given, !postExec.isEmpty(), "postExec");
        addIf(given, ranks != 1, "ranks");
        addIf(given, coresPerRank != 1, "coresPerRank");
        addIf(given, gpusPerRank != 0, "gpusPerRank");
        addIf(given, priority != 0, "priority");
        addIf(given, timeoutSeconds != 0, "timeout");
        addIf(given, restartable, "restartable");
        addIf(given, colocate != null, "colocate");
        addIf(given, exclusive, "exclusive");
        addIf(given, !inputStaging.isEmpty(), "inputStaging");
        addIf(given, !outputStaging.isEmpty(), "outputStaging");
        addIf(given, stageOnError, "stageOnError");
        addIf(given, pilot != null, "pilot");
        addIf(given, !dependencies.isEmpty(), "dependencies");
        addIf(given, !after.isEmpty(), "after");
        if (!given.isEmpty()) {
            throw new IllegalArgumentException("a function task runs in a worker JVM of its pool, one call on one core: "
                    + String.join(", ", given) + (given.size() == 1 ? " does" : " do") + " not apply to it (an executable task has "
                    + (given.size() == 1 ? "it" : "them") + ")");
        }
    }

    private static void addIf(List<String> given, boolean set, String field) {
        if (set) {
            given.add(field);
        }
    }

    private static void noNul(String field, String value) {
        if (value != null && value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a task's " + field + " cannot hold a NUL character: " + value.replace("\0", "\\0"));
        }
    }

    public String uid() {
        return uid;
    }

    /** The file its standard input reads, or null ({@code /dev/null}). */
    public String stdin() {
        return stdin;
    }
}
