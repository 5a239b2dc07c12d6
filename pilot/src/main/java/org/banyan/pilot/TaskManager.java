package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;

/**
 * Submits tasks to pilots and follows them to their end, as RADICAL-Pilot's task manager does.
 * Late binding: tasks submitted before any pilot is active wait here (TMGR_SCHEDULING_PENDING)
 * and go to the first pilot that becomes active; with several pilots, each batch goes to the
 * active pilot with the most cores per task already given it. Input staging happens here
 * (TMGR_STAGING_INPUT) before a task goes to its pilot, output staging (TMGR_STAGING_OUTPUT) once
 * the agent says it is done. A pilot that ends takes its unfinished tasks: restartable ones go
 * to another active pilot, the others FAIL.
 */
public final class TaskManager implements AutoCloseable {
    /** How many tasks one message to a pilot carries at most. */
    static final int BATCH = 4096;

    private final Session session;
    private final Path base = Path.of("").toAbsolutePath();
    private final List<BiConsumer<Task, TaskState>> callbacks = new CopyOnWriteArrayList<>();
    private final Map<Pilot, Link> links = new HashMap<>();
    private final List<Task> unbound = new ArrayList<>();
    private int counter;
    private final List<FunctionPool> pools = new ArrayList<>();
    private final Object defaultPoolLock = new Object();
    private FunctionPool defaultPool;
    /** Cores of the pilots added, active or not yet: the default pool's size. */
    private int pilotCores;
    private boolean closed;
    private boolean detached;
    /** Tasks that reached a final state, ever: what waiters count on. */
    private long finals;
    /**
     * The value of {@link #finals} at which some waiter could be satisfied. Waking the waiter on
     * every task's end cost the client a context switch per task (7,000 per 10,000 tasks in
     * {@code perf sched}), for a condition that cannot hold before its last task ends.
     */
    private long wakeAt = Long.MAX_VALUE;

    /** The connection to one pilot's DVM, with its reader. */
    private final class Link {
        final Pilot pilot;
        final DvmClient client;
        final Map<Integer, Task> byId = new HashMap<>();
        /** Batches sent and not yet accepted, in order: the reader gives them their ids before any update of theirs. */
        final java.util.Queue<List<Task>> sentBatches = new java.util.concurrent.ConcurrentLinkedQueue<>();
        final BlockingQueue<List<Integer>> accepted = new ArrayBlockingQueue<>(1);
        long given;

        Link(Pilot pilot, DvmClient client) {
            this.pilot = pilot;
            this.client = client;
            Thread.ofPlatform().daemon().name("tmgr-" + pilot.uid()).start(this::read);
        }

        private void read() {
            try {
                while (true) {
                    switch (client.receive()) {
                        case ClientMessage.TasksAccepted(List<Integer> ids) -> {
                            List<Task> batch = sentBatches.poll();
                            synchronized (TaskManager.this) {
                                for (int i = 0; batch != null && i < ids.size(); i++) {
                                    batch.get(i).agentId = ids.get(i);
                                    batch.get(i).pilot = pilot;
                                    byId.put(ids.get(i), batch.get(i));
                                }
                            }
                            accepted.put(ids);
                        }
                        case ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> updates) -> updates.forEach(this::update);
                        default -> {
                            // not for a task manager
                        }
                    }
                }
            } catch (IOException | InterruptedException e) {
                pilotGone(this);
            }
        }

        private void update(ClientMessage.TaskUpdate u) {
            Task t;
            synchronized (TaskManager.this) {
                t = byId.get(u.taskId());
            }
            if (t == null) {
                return;
            }
            if (u.execStartMicros() > 0) { // when its process really ran, as RADICAL-Pilot's exec_start/exec_stop
                session.profile().event(u.execStartMicros(), "exec_start", "agent", t.uid(), "", "");
                session.profile().event(u.execEndMicros(), "exec_stop", "agent", t.uid(), "", "");
            }
            if (u.state() == TaskState.DONE) {
                move(t, TaskState.AGENT_STAGING_OUTPUT, u.timeMicros(), 0, "");
                stageOut(t);
            } else {
                move(t, u.state(), u.timeMicros(), u.exitCode(), u.detail());
            }
            if (t.state().isFinal()) {
                synchronized (TaskManager.this) {
                    byId.remove(u.taskId());
                }
            }
        }
    }

    public TaskManager(Session session) {
        this.session = session;
        session.own(this);
    }

    /**
     * The tasks submitted from now on outlive this manager: closing it (or this JVM ending) lets
     * go of them instead of cancelling them, and {@code banyan wait} and {@code banyan cancel}
     * (by {@link Task#dvmId()}) follow them. Call before adding pilots. Output staging, which is
     * this manager's work, does not happen for them.
     */
    public synchronized void detach() {
        if (!links.isEmpty()) {
            throw new IllegalStateException("detach() before addPilots()");
        }
        detached = true;
    }

    /** Called for every state a task reaches, the skipped ones included, in order. */
    public void registerCallback(BiConsumer<Task, TaskState> callback) {
        callbacks.add(callback);
    }

    /** Pilots to send tasks to; each is used once it is active. */
    public void addPilots(Pilot... pilots) {
        for (Pilot p : pilots) {
            synchronized (this) {
                pilotCores += p.cores();
            }
            p.onState((pilot, state) -> {
                if (state == PilotState.PMGR_ACTIVE) {
                    connect(pilot);
                }
            });
            if (p.state() == PilotState.PMGR_ACTIVE) {
                connect(p);
            }
        }
    }

    private void connect(Pilot p) {
        synchronized (this) {
            if (links.containsKey(p) || closed) {
                return;
            }
            try {
                DvmClient client = DvmClient.connect(p.files(), "task manager");
                if (detached) {
                    client.send(new ClientMessage.Detach());
                }
                links.put(p, new Link(p, client));
            } catch (DvmClient.Unreachable | IOException e) {
                return;
            }
        }
        List<Task> waiting;
        synchronized (this) {
            waiting = List.copyOf(unbound);
            unbound.clear();
        }
        dispatch(waiting);
    }

    public List<Task> submit(TaskDescription... descriptions) {
        return submit(List.of(descriptions));
    }

    /** Takes tasks; they go to an active pilot now, or wait for one. */
    public List<Task> submit(List<TaskDescription> descriptions) {
        List<Task> tasks = new ArrayList<>();
        long now = Session.nowMicros();
        synchronized (this) {
            for (TaskDescription d : descriptions) {
                if (d.mode != TaskDescription.Mode.FUNCTION && (d.executable == null || d.executable.isBlank())) {
                    throw new IllegalArgumentException("a task needs an executable (or a function)");
                }
                String uid = d.uid != null ? d.uid : uid(counter);
                counter++;
                Path sandbox = d.sandbox != null ? base.resolve(d.sandbox) : session.dir().resolve(uid);
                Task t = new Task(uid, d, sandbox, now);
                session.profile().event(now, "state", "tmgr", uid, TaskState.NEW.name(),
                        "cores=" + d.ranks * d.coresPerRank);
                tasks.add(t);
            }
        }
        List<Task> processes = new ArrayList<>(tasks.size());
        List<Task> functions = new ArrayList<>();
        for (Task t : tasks) {
            move(t, TaskState.TMGR_SCHEDULING_PENDING, now, 0, "");
            (t.description().mode == TaskDescription.Mode.FUNCTION ? functions : processes).add(t);
        }
        dispatch(processes);
        if (!functions.isEmpty()) {
            runFunctions(functions);
        }
        return tasks;
    }

    /**
     * A pool of {@code workers} function workers (one core each) on this manager's pilots, for
     * {@link FunctionPool#submit} and {@link FunctionPool#map}; closed with the manager.
     */
    public FunctionPool functionPool(int workers) throws IOException {
        FunctionPool pool = new FunctionPool(this, workers);
        synchronized (this) {
            pools.add(pool);
        }
        return pool;
    }

    /** Function tasks go to the default pool: one worker per core of the pilots added so far. */
    private void runFunctions(List<Task> functions) {
        FunctionPool pool;
        try {
            // Not under this manager's lock: starting the workers submits tasks, whose acceptance needs it.
            synchronized (defaultPoolLock) {
                if (defaultPool == null) {
                    int cores;
                    synchronized (this) {
                        cores = Math.max(1, pilotCores);
                    }
                    defaultPool = functionPool(cores);
                }
                pool = defaultPool;
            }
        } catch (IOException e) {
            for (Task t : functions) {
                move(t, TaskState.FAILED, Session.nowMicros(), -1, "cannot start the function workers: " + e.getMessage());
            }
            return;
        }
        for (Task t : functions) {
            move(t, TaskState.AGENT_EXECUTING, Session.nowMicros(), 0, "function pool");
            pool.submit(t.description().function).whenComplete((value, error) -> {
                long at = Session.nowMicros();
                if (error == null) {
                    t.result().complete(value);
                    move(t, TaskState.DONE, at, 0, "");
                } else {
                    Throwable cause = error instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                            ? c.getCause() : error;
                    t.result().completeExceptionally(cause);
                    move(t, TaskState.FAILED, at, -1, cause.toString());
                }
            });
        }
    }

    /** {@code task.} and the number in at least six digits, as RADICAL-Pilot names its tasks. */
    static String uid(int n) {
        String digits = Integer.toString(n);
        return "task." + "0".repeat(Math.max(0, 6 - digits.length())) + digits; // not String.format: once a task
    }

    /** Sends tasks to active pilots, in batches; keeps them when there is none. */
    private void dispatch(List<Task> tasks) {
        for (int from = 0; from < tasks.size(); from += BATCH) {
            List<Task> batch = tasks.subList(from, Math.min(tasks.size(), from + BATCH));
            Link link = pick(batch.size());
            if (link == null) {
                synchronized (this) {
                    unbound.addAll(batch);
                }
                continue;
            }
            send(link, batch);
        }
    }

    private synchronized Link pick(int tasks) {
        Link best = null;
        for (Link l : links.values()) {
            if (l.pilot.state() == PilotState.PMGR_ACTIVE
                    && (best == null || (double) l.given / l.pilot.cores() < (double) best.given / best.pilot.cores())) {
                best = l;
            }
        }
        if (best != null) {
            best.given += tasks;
        }
        return best;
    }

    private void send(Link link, List<Task> batch) {
        List<TaskRequest> requests = new ArrayList<>();
        List<Task> sent = new ArrayList<>();
        for (Task t : batch) {
            long now = Session.nowMicros();
            t.pilot = link.pilot;
            move(t, TaskState.TMGR_SCHEDULING, now, 0, link.pilot.uid());
            move(t, TaskState.TMGR_STAGING_INPUT, now, 0, "");
            try {
                // The daemon makes the sandbox as it starts the task; here only when something goes in first.
                if (!t.description().inputStaging.isEmpty()) {
                    java.nio.file.Files.createDirectories(t.sandbox());
                }
                for (Staging s : t.description().inputStaging) {
                    s.stageIn(base, t.sandbox());
                }
            } catch (IOException e) {
                move(t, TaskState.FAILED, Session.nowMicros(), -1, "input staging: " + e);
                continue;
            }
            move(t, TaskState.AGENT_STAGING_INPUT_PENDING, Session.nowMicros(), 0, "");
            requests.add(request(t));
            sent.add(t);
        }
        if (requests.isEmpty()) {
            return;
        }
        try {
            synchronized (link) {
                link.sentBatches.add(sent);
                link.client.send(new ClientMessage.SubmitTasks(requests));
                link.accepted.take();
            }
        } catch (IOException | InterruptedException e) {
            for (Task t : sent) {
                move(t, TaskState.FAILED, Session.nowMicros(), -1, "lost the pilot " + link.pilot.uid() + ": " + e);
            }
        }
    }

    private static TaskRequest request(Task t) {
        TaskDescription d = t.description();
        String out = d.stdout != null ? d.stdout : t.uid() + ".out";
        String err = d.stderr != null ? d.stderr : t.uid() + ".err";
        return new TaskRequest(t.uid(), d.executable, d.arguments, d.environment, t.sandbox().toString(), out, err,
                d.preExec, d.postExec, new SlotRequest(d.ranks, d.coresPerRank, d.gpusPerRank, d.colocate, d.exclusive),
                d.priority, d.mode == TaskDescription.Mode.MPI, Math.round(d.timeoutSeconds * 1000), d.restartable);
    }

    private void stageOut(Task t) {
        move(t, TaskState.TMGR_STAGING_OUTPUT, Session.nowMicros(), 0, "");
        try {
            for (Staging s : t.description().outputStaging) {
                s.stageOut(base, t.sandbox());
            }
            move(t, TaskState.DONE, Session.nowMicros(), 0, "");
        } catch (IOException e) {
            move(t, TaskState.FAILED, Session.nowMicros(), 0, "output staging: " + e);
        }
    }

    private void move(Task t, TaskState to, long now, int code, String why) {
        if (t.advance(to, now, code, why, session.profile())) {
            for (BiConsumer<Task, TaskState> c : callbacks) {
                c.accept(t, to);
            }
            if (to.isFinal()) {
                synchronized (this) {
                    finals++;
                    if (finals >= wakeAt) {
                        wakeAt = Long.MAX_VALUE; // each waiter woken sets it again
                        notifyAll();
                    }
                }
            }
        }
    }

    /** A pilot's connection ended: restartable tasks go elsewhere, the rest fail. */
    private void pilotGone(Link link) {
        List<Task> orphans;
        synchronized (this) {
            links.remove(link.pilot);
            orphans = List.copyOf(link.byId.values());
            link.byId.clear();
        }
        List<Task> again = new ArrayList<>();
        for (Task t : orphans) {
            if (t.description().restartable && !closed) {
                again.add(t);
            } else {
                move(t, closed ? TaskState.CANCELED : TaskState.FAILED, Session.nowMicros(), -1,
                        "lost the pilot " + link.pilot.uid());
            }
        }
        for (Task t : again) {
            // back to waiting for a pilot: its TMGR states are behind it, so only the agent's restart
            t.pilot = null;
        }
        if (!again.isEmpty()) {
            List<Task> failed = new ArrayList<>();
            for (Task t : again) {
                Link l = pick(1);
                if (l == null) {
                    failed.add(t);
                } else {
                    resend(l, t);
                }
            }
            for (Task t : failed) {
                move(t, TaskState.FAILED, Session.nowMicros(), -1, "lost the pilot " + link.pilot.uid()
                        + " and no other is active");
            }
        }
    }

    /** A restartable task again, on another pilot: it keeps its states; the new agent moves it on. */
    private void resend(Link link, Task t) {
        try {
            synchronized (link) {
                link.sentBatches.add(List.of(t));
                link.client.send(new ClientMessage.SubmitTasks(List.of(request(t))));
                link.accepted.take();
            }
        } catch (IOException | InterruptedException e) {
            move(t, TaskState.FAILED, Session.nowMicros(), -1, "lost the pilot " + link.pilot.uid());
        }
    }

    /**
     * Waits until every task is in one of {@code states} (or final); returns their states, in
     * order. {@code timeoutMillis} 0 waits for ever.
     */
    public List<TaskState> waitTasks(Collection<Task> tasks, Set<TaskState> states, long timeoutMillis)
            throws InterruptedException {
        long deadline = timeoutMillis > 0 ? System.currentTimeMillis() + timeoutMillis : Long.MAX_VALUE;
        List<Task> list = List.copyOf(tasks);
        // Tasks before `settled` are final, which they stay: each wake-up looks on from there.
        // Scanning from the start made waiting for n tasks O(n²): a client's CPU per task doubled
        // over 100,000 tasks, and the rate fell with it (bench/tasks 100000).
        int settled = 0;
        // Waiting only for final states, no task can satisfy it before all of its unfinished ones
        // end, so the waiter asks to be woken then. A waiter for other states too wakes on every
        // end, and polls for the states that are not final.
        boolean finalOnly = states.stream().allMatch(TaskState::isFinal);
        synchronized (this) {
            while (true) {
                while (settled < list.size() && list.get(settled).state().isFinal()) {
                    settled++;
                }
                boolean all = true;
                int unfinished = 0;
                for (int i = settled; i < list.size(); i++) {
                    TaskState st = list.get(i).state();
                    if (!st.isFinal()) {
                        unfinished++;
                        if (!states.contains(st)) {
                            all = false;
                            if (!finalOnly) {
                                break;
                            }
                        }
                    }
                }
                long left = deadline - System.currentTimeMillis();
                if (all || left <= 0) {
                    break;
                }
                wakeAt = Math.min(wakeAt, finals + (finalOnly ? unfinished : 1));
                wait(Math.min(left, 100));
            }
        }
        return list.stream().map(Task::state).toList();
    }

    /** Waits until every task is final. */
    public List<TaskState> waitTasks(Collection<Task> tasks) throws InterruptedException {
        return waitTasks(tasks, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 0);
    }

    /** Cancels tasks in whatever state they are; running ones are ended (SIGTERM, then SIGKILL). */
    public void cancel(Collection<Task> tasks) {
        Map<Link, List<Integer>> byLink = new HashMap<>();
        for (Task t : tasks) {
            synchronized (this) {
                if (unbound.remove(t) || t.pilot == null) {
                    move(t, TaskState.CANCELED, Session.nowMicros(), 0, "");
                    continue;
                }
                Link l = links.get(t.pilot);
                if (l != null && t.agentId >= 0) {
                    byLink.computeIfAbsent(l, k -> new ArrayList<>()).add(t.agentId);
                }
            }
        }
        for (Map.Entry<Link, List<Integer>> e : byLink.entrySet()) {
            try {
                e.getKey().client.cancel(e.getValue());
            } catch (IOException ex) {
                // the reader sees the pilot gone and ends the tasks
            }
        }
    }

    /** Cancels what is unfinished and lets go of the pilots. */
    @Override
    public void close() {
        List<FunctionPool> open;
        synchronized (this) {
            open = List.copyOf(pools);
        }
        for (FunctionPool p : open) {
            p.close();
        }
        List<Task> unfinished = new ArrayList<>();
        List<Link> all;
        synchronized (this) {
            closed = true;
            if (detached) {
                for (Link l : links.values()) {
                    l.client.close(); // the DVM keeps the tasks
                }
                return;
            }
            unfinished.addAll(unbound);
            for (Link l : links.values()) {
                unfinished.addAll(l.byId.values());
            }
            all = List.copyOf(links.values());
        }
        cancel(unfinished);
        for (Link l : all) {
            l.client.close();
        }
    }
}
