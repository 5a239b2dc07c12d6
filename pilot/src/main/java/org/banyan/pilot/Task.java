package org.banyan.pilot;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskState;

/**
 * A submitted task: its state, every state's time (microseconds since the epoch), and once it
 * is over its exit code and, when it failed, why (the last lines of its stderr, a lost node, a
 * timeout) and its sandbox.
 */
public final class Task {
    private static final TaskState[] STATES = TaskState.values();
    private final String uid;
    private final TaskDescription description;
    /**
     * Null for the default, the session's directory and the uid, made when asked for: one path
     * per task (and its string, once sent) was a fifth of what a 100,000-task bag kept alive.
     */
    private final Path sandbox;
    private volatile RuntimeException callbackFailure;
    /** The manager it was submitted to, whose session's directory holds the default sandbox. */
    final TaskManager manager;
    /**
     * Each state's time by ordinal, and which states were reached: a task records 17 of them,
     * on the client's busiest threads, and an {@code EnumMap} made that 17 boxed longs and map
     * updates a task.
     */
    private final long[] times = new long[STATES.length];
    private long reached;
    private volatile TaskState state = TaskState.NEW;
    private volatile int exitCode;
    private volatile String detail = "";
    volatile Pilot pilot;
    volatile int agentId = -1;
    /** Canceled while its batch was on its way to the pilot (guarded by the task manager's lock). */
    boolean cancelAsked;
    /** Its place among the tasks its manager has not sent yet ({@link UnsentTasks}). */
    long seq;
    /** Its shape, made once: the task manager sorts and matches waiting tasks by it. */
    private SlotRequest slots;
    private final java.util.concurrent.CompletableFuture<Object> result = new java.util.concurrent.CompletableFuture<>();

    /** @param sandbox null: the session directory's directory named after the uid */
    Task(String uid, TaskDescription description, Path sandbox, TaskManager manager, long now) {
        this.uid = uid;
        this.description = description;
        this.sandbox = sandbox;
        this.manager = manager;
        reach(TaskState.NEW, now);
    }

    /**
     * The first exception a callback threw for this task ({@link TaskManager#registerCallback}),
     * or null: the task went on regardless (its state is what it ran to), and this is where a
     * program finds that its own callback failed. Also in the profile ({@code callback_failed},
     * with the state it was told) and on the thread's uncaught-exception handler.
     */
    public RuntimeException callbackFailure() {
        return callbackFailure;
    }

    void callbackThrew(RuntimeException e) {
        if (callbackFailure == null) {
            callbackFailure = e;
        }
    }

    /** Whether its sandbox is the one Banyan names for it (in the session's directory), not one the user gave. */
    boolean ownSandbox() {
        return sandbox == null;
    }

    private void reach(TaskState s, long now) {
        times[s.ordinal()] = now;
        reached |= 1L << s.ordinal();
    }

    public String uid() {
        return uid;
    }

    public TaskDescription description() {
        return description;
    }

    public TaskState state() {
        return state;
    }

    public int exitCode() {
        return exitCode;
    }

    /** For a FAILED task: what went wrong; its stderr's last lines when it exited non-zero. */
    public String detail() {
        return detail;
    }

    public Path sandbox() {
        return sandbox != null ? sandbox : manager.sessionDir().resolve(uid);
    }

    /**
     * What the task wrote to its stdout, as RADICAL-Pilot's {@code task.stdout}: once it is final,
     * the last {@value #OUTPUT_BYTES} bytes of its stdout file, read from its sandbox (which must
     * be visible here, as for output staging); null before that, for a function task, or when the
     * file cannot be read.
     */
    public String stdout() {
        return output(stdoutFile());
    }

    /** What the task wrote to its stderr, as {@link #stdout()}. */
    public String stderr() {
        return output(stderrFile());
    }

    /** Its stdout file, relative to the sandbox unless absolute: the description's, or {@code UID.out}. */
    private String stdoutFile() {
        return description.stdout != null ? description.stdout : uid + ".out";
    }

    private String stderrFile() {
        return description.stderr != null ? description.stderr : uid + ".err";
    }

    /** How much of a stream {@link #stdout()} and {@link #stderr()} give: its tail, as a task may write gigabytes. */
    static final int OUTPUT_BYTES = 1 << 16;

    private String output(String file) {
        if (!state.isFinal() || description.mode == TaskDescription.Mode.FUNCTION || description.attached) {
            return null;
        }
        java.nio.file.Path path = sandbox().resolve(file);
        if (state == TaskState.DONE && !java.nio.file.Files.exists(path)) {
            return ""; // it wrote nothing, and its empty file was removed
        }
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(path)) {
            long from = Math.max(0, ch.size() - OUTPUT_BYTES);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) (ch.size() - from));
            while (b.hasRemaining() && ch.read(b, from + b.position()) > 0) {
                // a file still growing (a child of the task writing on) gives what was there
            }
            return new String(b.array(), 0, b.position(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * A function task's value once it is DONE; completed exceptionally when it FAILED (with what
     * the function threw) or was CANCELED. For other tasks: null once they are over.
     */
    public java.util.concurrent.CompletableFuture<Object> result() {
        return result;
    }

    /** The task's number in its pilot's DVM (for {@code banyan wait} and {@code banyan cancel}); -1 until the DVM took it. */
    public int dvmId() {
        return agentId;
    }

    public Pilot pilot() {
        return pilot;
    }

    /**
     * Waits until the task is in one of {@code states} or final, as RADICAL-Pilot's
     * {@code task.wait(state, timeout)}; returns its state then. {@code timeoutMillis} 0 waits
     * for ever. The same as its manager's {@link TaskManager#waitTasks(java.util.Collection,
     * java.util.Set, long)} for this task alone.
     */
    public TaskState waitState(java.util.Set<TaskState> states, long timeoutMillis) throws InterruptedException {
        return manager.waitTasks(java.util.List.of(this), states, timeoutMillis).getFirst();
    }

    /** Waits until the task is final ({@code task.wait()}); returns that state. */
    public TaskState waitState() throws InterruptedException {
        return waitState(java.util.Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 0);
    }

    /** Cancels the task in whatever state it is, as RADICAL-Pilot's {@code task.cancel()} ({@link TaskManager#cancel}). */
    public void cancel() {
        manager.cancel(java.util.List.of(this));
    }

    /** Whether the task has been through {@code s}, reported or skipped on its way (and so in {@link #times}). */
    public synchronized boolean reached(TaskState s) {
        return (reached & 1L << s.ordinal()) != 0;
    }

    public synchronized Map<TaskState, Long> times() {
        Map<TaskState, Long> out = new EnumMap<>(TaskState.class);
        for (TaskState s : STATES) {
            if ((reached & 1L << s.ordinal()) != 0) {
                out.put(s, times[s.ordinal()]);
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** Moves on, recording the skipped states too; false when the task is past {@code to} already. */
    synchronized boolean advance(TaskState to, long now, int code, String why, Profile profile) {
        if (state.isFinal() || to.compareTo(state) <= 0) {
            if (to == TaskState.AGENT_SCHEDULING && state == TaskState.AGENT_EXECUTING) {
                // the agent placed it again (its node was lost): the states stay ordered, as
                // RADICAL-Pilot's, and the profile says why it ran twice
                profile.event(now, "restart", "agent", uid, state.name(), why);
            }
            return false;
        }
        java.util.List<TaskState> path = TaskState.path(state, to);
        for (int i = 0; i < path.size(); i++) {
            reach(path.get(i), now);
        }
        profile.states(now, uid, path, why);
        state = to;
        if (to.isFinal()) {
            exitCode = code;
            detail = why == null ? "" : why;
            if (to == TaskState.CANCELED) {
                result.cancel(false);
            } else if (to == TaskState.FAILED && description.mode != TaskDescription.Mode.FUNCTION) {
                result.completeExceptionally(new IllegalStateException(uid + " failed: " + detail));
            } else if (description.mode != TaskDescription.Mode.FUNCTION) {
                result.complete(null);
            }
        }
        return true; // no notifyAll: waiters wait in TaskWaits, and under C1 it is a call out of compiled code
    }

    /** The ranks, cores, GPUs and tags it asks for. */
    SlotRequest slots() {
        SlotRequest s = slots;
        if (s == null) {
            TaskDescription d = description;
            slots = s = new SlotRequest(d.ranks, d.coresPerRank, d.gpusPerRank, d.colocate, d.exclusive);
        }
        return s;
    }

    /**
     * What the pilot's agent gets: the description, with this task's uid, sandbox and default
     * output files. The agent's sandbox is where a task starts: for one given a workdir, that
     * directory, and its files are named by their paths in its own sandbox (which the task manager
     * makes as it stages the task in: the daemon makes only the directory a task starts in).
     */
    TaskRequest request(Map<String, String> pilotVariables, List<String> envCommands) {
        TaskDescription d = description;
        String start = sandbox().toString();
        String out = stdoutFile();
        String err = stderrFile();
        String in = d.stdin;
        Map<String, String> env = TaskVariables.withPilot(d.environment, pilotVariables, d.name);
        if (d.workdir != null) {
            Path box = sandbox();
            out = box.resolve(out).toString();
            err = box.resolve(err).toString();
            in = in == null ? null : box.resolve(in).toString();
            start = manager.base().resolve(d.workdir).toString();
            if (!env.containsKey("BANYAN_TASK_SANDBOX")) { // the agent would name where it starts
                env = new java.util.HashMap<>(env);
                env.put("BANYAN_TASK_SANDBOX", box.toString());
                env.putIfAbsent("RP_TASK_SANDBOX", box.toString());
            }
        }
        String executable = d.executable;
        List<String> arguments = d.arguments;
        if (d.shell) {
            arguments = List.of("-c", ShellArguments.asRadicalPilot(executable, arguments));
            executable = "/bin/sh";
        }
        return new TaskRequest(uid, executable, arguments, env, start, out, err,
                in, envCommands.isEmpty() ? d.preExec : concat(envCommands, d.preExec), d.postExec, slots(),
                d.priority, d.mode == TaskDescription.Mode.MPI, Math.round(d.timeoutSeconds * 1000), d.restartable, d.dependencies);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** {@code task.} and the number in at least six digits, as RADICAL-Pilot names its tasks. */
    static String uid(int n) {
        String digits = Integer.toString(n);
        return "task." + "0".repeat(Math.max(0, 6 - digits.length())) + digits; // not String.format: once a task
    }

    @Override
    public String toString() {
        return uid + (description.name != null ? " (" + description.name + ")" : "") + " " + state
                + (state == TaskState.FAILED ? " (exit " + exitCode + ": " + detail + ")" : "");
    }
}
