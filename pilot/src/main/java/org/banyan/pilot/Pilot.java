package org.banyan.pilot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.banyan.core.pilot.PilotState;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;
import org.banyan.runtime.dvm.DvmWarmUp;
import org.banyan.runtime.launch.DaemonCommand;

/**
 * A pilot: a DVM holding cores for a session's tasks. Its state goes NEW → PMGR_LAUNCHING →
 * PMGR_ACTIVE → DONE | FAILED | CANCELED (with the _PENDING states between, as in
 * RADICAL-Pilot), each step time-stamped in the session's profile.
 */
public final class Pilot {
    private final String uid;
    private final PilotDescription description;
    private final Session session;
    private final List<BiConsumer<Pilot, PilotState>> listeners = new ArrayList<>();
    private volatile PilotState state = PilotState.NEW;
    private volatile String detail = "";
    private volatile RuntimeException callbackFailure;
    private DvmFiles files;
    private Process head;
    /** A Slurm pilot's batch job, once submitted. */
    private volatile SlurmPilotJob slurmJob;
    private int cores;
    /** Set once this program ends the pilot ({@link #stop}): its DVM going away then is no failure. */
    private volatile boolean ending;
    /** For a DVM this program did not start (Slurm's, or one attached to): a connection that ends with it. */
    private volatile DvmClient watch;

    Pilot(String uid, PilotDescription description, Session session) {
        this.uid = uid;
        this.description = description;
        this.session = session;
        session.profile().event(Session.nowMicros(), "state", "pmgr", uid, PilotState.NEW.name(), "");
    }

    public String uid() {
        return uid;
    }

    public PilotState state() {
        return state;
    }

    /**
     * The first exception one of its listeners ({@link #onState}) threw, or null: the pilot went
     * on, and this is where a program (or a test) finds that its own code failed. Also in the
     * profile ({@code callback_failed}) and on the thread's uncaught-exception handler.
     */
    public RuntimeException callbackFailure() {
        return callbackFailure;
    }

    /** Why it failed, if it did. */
    public String detail() {
        return detail;
    }

    public PilotDescription description() {
        return description;
    }

    /** As a task prints: its uid and state, and why when it failed. */
    @Override
    public String toString() {
        PilotState now = state;
        return uid + " " + now + (now == PilotState.FAILED ? " (" + detail + ")" : "");
    }

    /** Cores the pilot holds, once active. */
    public int cores() {
        return cores;
    }

    DvmFiles files() {
        return files;
    }

    /**
     * Its sandbox, {@code SESSION/PILOT_UID}: where {@code pilot:///} points, what its tasks see
     * as {@code BANYAN_PILOT_SANDBOX} ({@code RP_PILOT_SANDBOX}), and where {@link #stageIn} puts
     * files for all its tasks to share.
     */
    public java.nio.file.Path sandbox() {
        return session.dir().resolve(uid);
    }
    // A local or Slurm pilot's DVM keeps its files in the sandbox, whose clients refuse a
    // directory others may write: wherever it is made, it is made with DvmFiles.makeDirectory.

    /**
     * RADICAL-Pilot's {@code pilot.stage_in}: files into its sandbox now, once, for every task
     * (which then names them {@code pilot:///NAME} in its own staging, or reads
     * {@code $RP_PILOT_SANDBOX/NAME}). A relative source is from the session's base directory, a
     * target without a place is in the pilot's sandbox.
     *
     * @throws IOException naming the directive that failed and why; the ones before it were done
     */
    public void stageIn(Staging... directives) throws IOException {
        DvmFiles.makeDirectory(sandbox());
        for (Staging s : directives) {
            s.stageInto(session.base(), sandbox(), session.dir());
        }
    }

    /** The commands that enter each prepared environment, by name. */
    private final java.util.Map<String, List<String>> envs = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * RADICAL-Pilot's {@code pilot.prepare_env(name, spec)}: makes the environment once, now
     * (a virtual environment in {@code SANDBOX/env/NAME}, its packages installed, its output in
     * {@code SANDBOX/env/NAME.log}), and from then on every task sent to this pilot that names it
     * ({@link TaskDescription#namedEnv}) enters it before its own {@code pre_exec}. The sandbox is
     * on a file system the pilot's hosts share, as its tasks' sandboxes are.
     *
     * @throws IllegalArgumentException for a name that is not letters, digits, '.', '_' or '-'
     * @throws IOException when it cannot be made, with the last lines of what its commands said
     */
    public void prepareEnv(String name, NamedEnv env) throws IOException {
        if (name == null || !name.matches("[A-Za-z0-9._-]+") || name.startsWith(".")) {
            throw new IllegalArgumentException("an environment's name is letters, digits, '.', '_' and '-', got '" + name + "'");
        }
        if (!env.isVirtualenv()) {
            envs.put(name, env.setup());
            session.profile().event(Session.nowMicros(), "env_prepared", "pmgr", uid, name, "shell");
            return;
        }
        java.nio.file.Path dir = sandbox().resolve("env").resolve(name);
        DvmFiles.makeDirectory(sandbox());
        java.nio.file.Files.createDirectories(dir.getParent());
        java.nio.file.Path log = dir.resolveSibling(name + ".log");
        // without packages it needs no pip (Debian's python3 has ensurepip only with python3-venv)
        List<String> make = env.setup().isEmpty() ? List.of(env.python(), "-m", "venv", "--without-pip", dir.toString())
                : List.of(env.python(), "-m", "venv", dir.toString());
        EnvCommands.run(make, log, "making the virtual environment " + name);
        if (!env.setup().isEmpty()) {
            List<String> pip = new ArrayList<>(List.of(dir.resolve("bin/python").toString(), "-m", "pip", "install", "--quiet"));
            pip.addAll(env.setup());
            EnvCommands.run(pip, log, "installing " + String.join(" ", env.setup()) + " into " + name);
        }
        envs.put(name, List.of(". '" + dir.resolve("bin/activate").toString().replace("'", "'\\''") + "'"));
        session.profile().event(Session.nowMicros(), "env_prepared", "pmgr", uid, name, "virtualenv");
    }

    /** The commands that enter environment {@code name}, or null when it was not prepared here. */
    List<String> envCommands(String name) {
        return envs.get(name);
    }

    /** RADICAL-Pilot's {@code pilot.stage_out}: files out of its sandbox (to the session's base directory by default). */
    public void stageOut(Staging... directives) throws IOException {
        for (Staging s : directives) {
            s.stageOutOf(session.base(), sandbox(), session.dir());
        }
    }

    /**
     * Called for every state the pilot is moved to, on the thread that moves it (its launcher,
     * mostly): a listener should be short. One that throws is reported to that thread's
     * uncaught-exception handler, and the pilot goes on.
     */
    public synchronized void onState(BiConsumer<Pilot, PilotState> listener) {
        listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /** Ends the pilot and everything it runs, as RADICAL-Pilot's {@code pilot.cancel()} ({@link PilotManager#cancel}). */
    public void cancel() {
        stop(PilotState.CANCELED, "canceled");
    }

    /** Waits until the pilot reaches {@code wanted} or a final state; returns the state then. */
    public PilotState waitState(PilotState wanted, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        synchronized (this) {
            while (state.compareTo(wanted) < 0 && !state.isFinal()) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    break;
                }
                wait(left);
            }
            return state;
        }
    }

    void advance(PilotState to, String why) {
        List<BiConsumer<Pilot, PilotState>> ls;
        synchronized (this) {
            if (state.isFinal() || to.compareTo(state) <= 0) {
                return;
            }
            for (PilotState s : PilotState.values()) {
                if (s.compareTo(state) > 0 && s.compareTo(to) <= 0 && (!s.isFinal() || s == to)) {
                    session.profile().event(Session.nowMicros(), "state", "pmgr", uid, s.name(), why);
                }
            }
            state = to;
            detail = why;
            ls = List.copyOf(listeners);
            notifyAll();
        }
        for (BiConsumer<Pilot, PilotState> l : ls) {
            try {
                l.accept(this, to);
            } catch (RuntimeException e) { // it ended the launcher, and the pilot never became active
                if (callbackFailure == null) {
                    callbackFailure = e;
                }
                session.profile().event(Session.nowMicros(), "callback_failed", "pmgr", uid, to.name(), TaskTransitions.describe(e));
                TaskTransitions.reportUncaught(e);
            }
        }
    }

    /** Starts (or attaches to) the DVM; on the pilot manager's thread. */
    void launch() {
        advance(PilotState.PMGR_LAUNCHING, "");
        try {
            if (description.resource().equals("dvm")) {
                files = new DvmFiles(description.dvm().toAbsolutePath());
            } else if (description.resource().equals("slurm")) {
                files = new DvmFiles(session.dir().resolve(uid).resolve("dvm.uri"));
                slurmJob = new SlurmPilotJob(uid, description, files, session.dir().resolve(uid));
                slurmJob.submit();
                slurmJob.awaitDvm(() -> state.isFinal());
            } else {
                files = new DvmFiles(session.dir().resolve(uid).resolve("dvm.uri"));
                startHead();
            }
            String warmed = "";
            try (DvmClient c = DvmClient.connect(files, "pilot " + uid)) {
                cores = c.welcome().slots();
                if (description.warmUpPerHost() > 0) {
                    DvmWarmUp.Outcome o = DvmWarmUp.run(c, description.warmUpPerHost());
                    warmed = " warm_up=" + (o.done() + o.notDone()) + " tasks in " + o.millis() + " ms"
                            + (o.failures() == null ? "" : "; " + o.failures());
                }
            }
            advance(PilotState.PMGR_ACTIVE, "cores=" + cores + warmed);
            if (head != null) { // seen at once, with or without a task manager attached
                Process h = head;
                h.onExit().thenRun(() -> lost("its DVM ended (status " + h.exitValue() + "; see " + files.log() + ")"));
            } else {
                watchDvm();
            }
        } catch (IOException | DvmClient.Unreachable | InterruptedException e) {
            advance(PilotState.FAILED, e.getMessage());
            stopHead();
            if (slurmJob != null) {
                slurmJob.cancel();
            }
        }
    }

    private void startHead() throws IOException, InterruptedException {
        String hosts = description.resource().equals("local")
                ? "localhost:" + (description.cores() > 0 ? description.cores() : Runtime.getRuntime().availableProcessors())
                : String.join(",", description.hosts());
        List<String> cmd = new ArrayList<>(DaemonCommand.jvmForDvm("org.banyan.runtime.dvm.DvmMain"));
        cmd.addAll(List.of("--uri-file", files.uri().toString(), "--host", hosts, "--agent",
                description.resource().equals("local") ? "inproc" : "ssh"));
        if (description.gpusPerHost() != PilotDescription.FOUND_GPUS) {
            cmd.addAll(List.of("--gpus-per-host", Integer.toString(description.gpusPerHost())));
        }
        files.makeDirectory();
        head = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(files.log().toFile()).start();
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (files.read().pid() == head.pid()) {
                    return;
                }
            } catch (IOException e) {
                // not yet
            }
            if (!head.isAlive()) {
                throw new IOException("the pilot's DVM did not start: " + files.whyItEnded() + " (log: " + files.log() + ")");
            }
            Thread.sleep(20);
        }
        throw new IOException("the pilot's DVM was not up within 60 s (see " + files.log() + ")");
    }

    /**
     * Keeps a connection to a DVM this program did not start, read by a thread of its own: the
     * DVM closes it as it ends, so the pilot sees a Slurm job's end or a {@code dvm stop} from a shell
     * with no task manager attached (before, only a task manager's connection would tell).
     */
    private void watchDvm() throws DvmClient.Unreachable {
        DvmClient w = DvmClient.connect(files, "pilot " + uid);
        watch = w;
        if (ending) { // stopped meanwhile, before stop() could see the connection
            w.close();
            return;
        }
        Thread.ofPlatform().daemon().name("watch-" + uid).start(() -> {
            try {
                while (true) {
                    w.receive();
                }
            } catch (IOException e) {
                lost(e);
            }
        });
    }

    /** Its connection to the DVM ended (this pilot's watch, or a task manager's): lost, unless ended here. */
    void lost(IOException e) {
        lost("lost its DVM (" + DvmClient.why(e) + ")");
    }

    /**
     * Its DVM went away while nobody here was ending the pilot (killed, stopped from a shell, its
     * host gone): FAILED, as RADICAL-Pilot's pilot is when its agent dies. It stayed PMGR_ACTIVE.
     */
    void lost(String why) {
        if (!ending) {
            advance(PilotState.FAILED, why);
        }
    }

    /** Ends the pilot: its DVM stops (if this pilot started it), its tasks with it. */
    void stop(PilotState end, String why) {
        ending = true;
        DvmClient w = watch;
        if (w != null) {
            w.close();
        }
        if (!state.isFinal()) {
            if ((head != null || slurmJob != null) && files != null) {
                try (DvmClient c = DvmClient.connect(files, "pilot " + uid)) {
                    c.stop(30_000);
                } catch (IOException | DvmClient.Unreachable e) {
                    // gone already
                }
            }
            stopHead();
            if (slurmJob != null) {
                slurmJob.cancel(); // its DVM is stopped already; the job's end is Slurm's to see
            }
            advance(end, why);
        }
    }

    private void stopHead() {
        if (head != null) {
            try {
                head.getOutputStream().close(); // its stdin: the head ends with it
                if (!head.waitFor(30, TimeUnit.SECONDS)) {
                    head.destroyForcibly();
                }
            } catch (IOException | InterruptedException e) {
                head.destroyForcibly();
            }
        }
    }
}
