package org.banyan.pilot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a task is, with the fields RADICAL-Pilot's users know (camelCase here, snake_case in task
 * files): the executable and its arguments, environment, sandbox, ranks, cores and GPUs per
 * rank, pre- and post-exec commands, stdout/stderr files, input and output staging, priority,
 * timeout, restartable, the colocate and exclusive tags, and a mode ({@code executable}, or
 * {@code mpi} for ranks PMI-wired across hosts as {@code banyan run} does). Unset fields keep
 * their defaults: one rank of one core, files named after the uid in a sandbox of the session.
 */
public final class TaskDescription {
    public enum Mode { EXECUTABLE, MPI, FUNCTION }

    String uid;
    String executable;
    List<String> arguments = new ArrayList<>();
    Map<String, String> environment = new LinkedHashMap<>();
    String sandbox;
    String stdout;
    String stderr;
    List<String> preExec = new ArrayList<>();
    List<String> postExec = new ArrayList<>();
    int ranks = 1;
    int coresPerRank = 1;
    int gpusPerRank;
    int priority;
    double timeoutSeconds;
    boolean restartable;
    String colocate;
    boolean exclusive;
    Mode mode = Mode.EXECUTABLE;
    SerializableCallable<?> function;
    List<Staging> inputStaging = new ArrayList<>();
    List<Staging> outputStaging = new ArrayList<>();

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
        arguments = new ArrayList<>(List.of(a));
        return this;
    }

    public TaskDescription arguments(List<String> a) {
        arguments = new ArrayList<>(a);
        return this;
    }

    public TaskDescription environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public TaskDescription uid(String u) {
        uid = u;
        return this;
    }

    public TaskDescription sandbox(String s) {
        sandbox = s;
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

    public TaskDescription preExec(String... commands) {
        preExec = new ArrayList<>(List.of(commands));
        return this;
    }

    public TaskDescription postExec(String... commands) {
        postExec = new ArrayList<>(List.of(commands));
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

    public TaskDescription timeout(double seconds) {
        timeoutSeconds = seconds;
        return this;
    }

    public TaskDescription restartable(boolean r) {
        restartable = r;
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
        inputStaging = new ArrayList<>(List.of(s));
        return this;
    }

    public boolean hasOutputStaging() {
        return !outputStaging.isEmpty();
    }

    public TaskDescription outputStaging(Staging... s) {
        outputStaging = new ArrayList<>(List.of(s));
        return this;
    }

    public String executable() {
        return executable;
    }

    public String uid() {
        return uid;
    }
}
