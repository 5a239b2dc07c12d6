package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskState;

/**
 * Submits tasks to pilots and follows them to their end, as RADICAL-Pilot's task manager does.
 * Late binding: tasks submitted before any pilot is active wait here (TMGR_SCHEDULING_PENDING)
 * and go to the first pilot that becomes active; with several pilots, each batch goes to the
 * active pilot with the fewest tasks per core given so far, of the tasks it could run (cores and
 * GPUs of a rank on one host, of the task on all: {@link PilotFit}); a task no pilot could run
 * fails once every pilot is connected or over. A pilot holds at most a window of
 * tasks that have not ended ({@link #window(int)}; with other pilots to share them, about half a
 * second of its ends, see {@link SendWindow#SHARED_SECONDS}); the rest wait here, higher
 * priority first, and go as tasks end. Input staging happens here
 * (TMGR_STAGING_INPUT) before a task goes to its pilot, output staging (TMGR_STAGING_OUTPUT) once
 * the agent says it is done. A pilot that ends takes its unfinished tasks: restartable ones go
 * to another active pilot, the others FAIL. A task that waits for others of this manager
 * ({@link TaskDescription#after}) is held here ({@link HeldTasks}) until they have moved as asked.
 */
public final class TaskManager implements AutoCloseable {
    /**
     * The size of a submit's first batch when its tasks share one priority, each next one four
     * times larger up to {@link SendWindow#BATCH}.
     */
    static final int FIRST_BATCH = 64;

    private final Session session;
    private final Path base;
    final PilotRoster roster = new PilotRoster();
    /** Tasks no pilot has yet: waiting for one to be active, or for room in one. */
    final UnsentTasks unsent = new UnsentTasks();
    private final SendWindow window = new SendWindow();
    /** Serializes sending (which waits for each batch's acceptance) between submit() and the feeder. */
    private final Object sending = new Object();
    /** Sends what waited for room once tasks have ended. */
    private final Feeder feeder = new Feeder(this::pump, this::closedByUser);
    private final FunctionTasks functionTasks = new FunctionTasks(this, this::move, this::pilotCores);
    /** Under this manager's lock, as every field the pilots' comings and goings ({@link PilotChanges}) touch. */
    boolean closed;
    boolean detached;
    /** What pilots becoming active, unreachable or over do to the tasks. */
    final PilotChanges changes = new PilotChanges(this);
    final TaskTransitions transitions;
    final TaskStaging staging;
    /** Tasks waiting for others of this manager ({@link TaskDescription#after}). */
    private final HeldTasks held;

    public TaskManager(Session session) {
        this.session = session;
        this.base = session.base();
        this.transitions = new TaskTransitions(session.profile());
        this.staging = new TaskStaging(base, session.dir(), transitions);
        this.held = new HeldTasks(transitions, this::released, (t, why) -> move(t, TaskState.FAILED, Session.nowMicros(), -1, why));
        session.own(this);
    }

    /**
     * The tasks submitted from now on outlive this manager: closing it (or this JVM ending) lets
     * go of them instead of cancelling them, and {@code banyan wait} and {@code banyan cancel}
     * (by {@link Task#dvmId()}) follow them. Call before adding pilots. Output staging, which is
     * this manager's work, does not happen for them.
     */
    public synchronized void detach() {
        if (roster.anyLinked()) {
            throw new IllegalStateException("detach() before addPilots()");
        }
        detached = true;
        window.unbounded(); // all sent before submit returns: banyan submit --detach prints their ids
    }

    /**
     * Called for every state a task is moved to, in order. The states it skipped on the way are
     * not called back; they are in its {@link Task#times()} and the profile. Callbacks run on
     * this manager's threads (the one reading a pilot's updates, mostly): they should be short.
     * They may submit and cancel tasks, but not wait for them ({@link #waitTasks} throws
     * IllegalStateException there); one that throws is reported to its thread's
     * uncaught-exception handler, and the tasks go on.
     */
    public void registerCallback(BiConsumer<Task, TaskState> callback) {
        transitions.register(callback);
    }

    /** Pilots to send tasks to; each is used once it is active. */
    public void addPilots(Pilot... pilots) {
        for (Pilot p : pilots) {
            synchronized (this) {
                roster.add(p);
            }
            p.onState((pilot, state) -> {
                if (state == PilotState.PMGR_ACTIVE) {
                    changes.connect(pilot);
                } else if (state.isFinal()) {
                    changes.noPilotLeft();
                    changes.failUnfit();
                }
            });
            if (p.state() == PilotState.PMGR_ACTIVE) {
                changes.connect(p);
            }
        }
    }

    /**
     * How many tasks a pilot may hold that have not ended (0: the default, 1,024 or two per
     * core, whichever is more; see {@link SendWindow#LEAST}). The rest wait in this manager,
     * higher priority first, and go as tasks end: a small window lets a later high-priority task
     * overtake more of a big bag. Ingesting a whole bag at once also cost a 100,000-task bag's first 10,000 tasks a
     * sixth of their rate, the client's main thread taking a core for a second. Tasks that run
     * for long count against the window all that time (a function pool's workers too).
     */
    public synchronized TaskManager window(int tasks) {
        window.size(tasks);
        return this;
    }

    /**
     * Whether a DONE task that wrote nothing keeps its empty {@code UID.out} and {@code UID.err}
     * (and its sandbox, then empty): not by default (RADICAL-Pilot keeps them).
     */
    public TaskManager keepEmptyOutput(boolean keep) {
        staging.keepEmpty(keep);
        return this;
    }

    /**
     * Follows tasks a program left running on {@code pilot}'s DVM ({@link #detach}, or
     * {@code banyan submit --detach}), by their DVM ids ({@link Task#dvmId()}, as submit
     * printed them): RADICAL-Pilot's re-attach to a session's tasks. The tasks returned move
     * through their states from the one they are in (a task already over comes back final), and
     * {@link #waitTasks}, {@link #cancel} and the callbacks take them like this manager's own;
     * an id the DVM does not know comes back FAILED saying so. Their descriptions, sandboxes and
     * output are the submitting program's and are not known here ({@link Task#stdout()} is
     * null). The pilot must have been added to this manager and be active.
     *
     * @throws IllegalArgumentException when the pilot is not one of this manager's active pilots
     * @throws IOException when its DVM cannot be reached
     */
    public List<Task> attach(Pilot pilot, java.util.Collection<Integer> dvmIds) throws IOException {
        PilotLink link;
        synchronized (this) {
            link = roster.linkOf(pilot);
        }
        if (link == null) {
            throw new IllegalArgumentException(pilot.uid() + " is not an active pilot of this task manager");
        }
        return new TaskAttachment(this, link).attach(List.copyOf(dvmIds));
    }

    /** A task counted on {@code link} that will not run there (an attached id its DVM did not know, an unprepared named_env): FAILED. */
    void failedOn(PilotLink link, Task t, String why) {
        synchronized (this) {
            endedOn(link);
        }
        move(t, TaskState.FAILED, Session.nowMicros(), -1, why);
    }

    /** Under this manager's lock: how many waiting tasks should go to {@code l} now. */
    private int toSend(PilotLink l) {
        double rate = roster.sharesTasks() ? l.ends.perSecond(System.nanoTime()) : SendWindow.ALONE;
        return window.toSend(l.pilot.cores(), l.inFlight, unsent.size(), rate);
    }

    /** Under this manager's lock: one of {@code link}'s tasks ended; the feeder goes when that made room. */
    void endedOn(PilotLink link) {
        link.ends.ended(System.nanoTime());
        link.inFlight--;
        if (feeder.started() && toSend(link) > 0) {
            feeder.wakeOnce();
        }
    }

    /**
     * Sends waiting tasks, a batch at a time, to the active pilots with room for them; what does
     * not fit waits for tasks to end, and the feeder sends it then.
     */
    void pump() {
        synchronized (sending) {
            // pilots that could run none of the tasks waiting: left out until the next pump
            Set<PilotLink> passed = new java.util.HashSet<>();
            while (true) {
                PilotLink link;
                List<Task> batch;
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    link = roster.leastGiven(l -> !passed.contains(l) && toSend(l) > 0);
                    if (link == null) {
                        if (!unsent.isEmpty() && roster.anyLinked()) {
                            feeder.start();
                        }
                        return;
                    }
                    batch = unsent.take(toSend(link), link::takes);
                    if (batch.isEmpty()) {
                        passed.add(link);
                        continue;
                    }
                    for (Task t : batch) {
                        t.pilot = link.pilot;
                    }
                    link.inFlight += batch.size();
                    link.given += batch.size();
                }
                if (!batch.isEmpty()) {
                    link.send(batch);
                }
            }
        }
    }

    public List<Task> submit(TaskDescription... descriptions) {
        return submit(List.of(descriptions));
    }

    /**
     * Takes tasks; they go to an active pilot now, or wait for one.
     *
     * @throws IllegalArgumentException when one of them cannot be a task, or has a uid a task of
     *                                  this session has already (none is taken then)
     * @throws IllegalStateException     when this manager is closed (nothing would run them)
     */
    public List<Task> submit(List<TaskDescription> descriptions) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the task manager is closed");
            }
        }
        for (TaskDescription d : descriptions) { // all or nothing
            d.check();
            held.check(d, this, isDetached());
        }
        List<String> uids = session.ids().claimTasks(descriptions);
        transitions.taken(descriptions.size());
        List<Task> tasks = new ArrayList<>(descriptions.size());
        List<Task> functions = new ArrayList<>();
        // A batch at a time, so that the first goes out while the rest are made. The first ones
        // are small, so the pilot starts on them while the larger ones are made; but only when
        // the tasks share one priority: a batch leaves before the next is here to overtake it.
        int first = TaskDescription.onePriority(descriptions) ? FIRST_BATCH : SendWindow.BATCH;
        for (int from = 0, step = first; from < descriptions.size(); from += step, step = Math.min(SendWindow.BATCH, 4 * step)) {
            List<Task> batch = new ArrayList<>();
            long now = Session.nowMicros();
            synchronized (this) {
                for (int i = from; i < Math.min(descriptions.size(), from + step); i++) {
                    TaskDescription d = descriptions.get(i);
                    String uid = uids.get(i);
                    Task t = new Task(uid, d, d.sandbox != null ? base.resolve(d.sandbox) : null, this, now);
                    unsent.number(t);
                    session.profile().event(now, "state", "tmgr", uid, TaskState.NEW.name(),
                            "cores=" + d.ranks * d.coresPerRank);
                    batch.add(t);
                }
            }
            List<Task> processes = new ArrayList<>(batch.size());
            for (Task t : batch) {
                move(t, TaskState.TMGR_SCHEDULING_PENDING, now, 0, "");
                if (!t.description().after.isEmpty() && held.hold(t)) {
                    continue;
                }
                (t.description().mode == TaskDescription.Mode.FUNCTION ? functions : processes).add(t);
            }
            synchronized (this) {
                for (Task t : processes) {
                    unsent.add(t);
                }
            }
            changes.failUnfit();
            changes.noPilotLeft(); // submitted after the last pilot ended: nothing will run them
            if (TaskTransitions.inCallback()) {
                // The sender waits for the pilot to accept the batch, which the thread running
                // this callback may be the one to read: the feeder sends it instead.
                synchronized (this) {
                    feeder.start();
                }
                feeder.wake();
            } else {
                pump();
            }
            tasks.addAll(batch);
        }
        if (!functions.isEmpty()) {
            boolean over;
            synchronized (this) {
                over = roster.allOver();
            }
            if (over) {
                for (Task t : functions) {
                    move(t, TaskState.FAILED, Session.nowMicros(), -1, "no pilot left to run it");
                }
            } else {
                functionTasks.run(functions);
            }
        }
        return tasks;
    }

    synchronized boolean isDetached() {
        return detached;
    }

    /** Held tasks that may go now, sent by the feeder (this is a task callback); canceled if released as it closes. */
    private void released(List<Task> tasks) {
        boolean late;
        synchronized (this) {
            late = closed;
            for (Task t : tasks) {
                if (!late && !t.state().isFinal()) {
                    unsent.add(t);
                }
            }
            if (!late) {
                feeder.start();
            }
        }
        if (late) { // told outside the lock, as callbacks may take it
            tasks.forEach(t -> move(t, TaskState.CANCELED, Session.nowMicros(), 0, ""));
            return;
        }
        changes.noPilotLeft(); // released after the last pilot ended
        changes.failUnfit();
        feeder.wake();
    }

    /**
     * A pool of {@code workers} function workers (one core each) on this manager's pilots, for
     * {@link FunctionPool#submit} and {@link FunctionPool#map}; closed with the manager.
     */
    public FunctionPool functionPool(int workers) throws IOException {
        return functionTasks.pool(workers);
    }

    Path sessionDir() {
        return session.dir();
    }

    /** What relative sandboxes and workdirs are relative to. */
    Path base() {
        return base;
    }

    private synchronized int pilotCores() {
        return roster.cores();
    }

    void move(Task t, TaskState to, long now, int code, String why) {
        transitions.move(t, to, now, code, why);
    }

    /**
     * Waits until every task is in one of {@code states} (or final); returns their states, in
     * order. {@code timeoutMillis} 0 waits for ever.
     *
     * @throws IllegalArgumentException for a negative timeout, or a task of another manager
     *                                  (this one would not see it move)
     * @throws IllegalStateException    in a task callback, unless the tasks are there already
     */
    public List<TaskState> waitTasks(Collection<Task> tasks, Set<TaskState> states, long timeoutMillis)
            throws InterruptedException {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("a negative timeout: " + timeoutMillis + " ms (0 waits for ever)");
        }
        for (Task t : tasks) {
            if (t.manager != this) {
                throw new IllegalArgumentException(t.uid() + " was submitted to another task manager: wait with that one");
            }
        }
        return transitions.await(tasks, java.util.Objects.requireNonNull(states, "states"), timeoutMillis);
    }

    /** Waits until every task is final. */
    public List<TaskState> waitTasks(Collection<Task> tasks) throws InterruptedException {
        return waitTasks(tasks, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 0);
    }

    /**
     * Waits until every task submitted to this manager so far is final, as RADICAL-Pilot's
     * {@code wait_tasks()} without uids; the manager need not hold the tasks for it.
     *
     * @throws IllegalStateException in a task callback
     */
    public void waitTasks() throws InterruptedException {
        transitions.awaitAll();
    }

    /**
     * Cancels tasks in whatever state they are; running ones are ended (SIGTERM, then SIGKILL).
     *
     * @throws IllegalArgumentException for a task of another manager (none is canceled then)
     */
    public void cancel(Collection<Task> tasks) {
        for (Task t : tasks) {
            if (t.manager != this) {
                throw new IllegalArgumentException(t.uid() + " was submitted to another task manager: cancel it with that one");
            }
        }
        Map<PilotLink, List<Integer>> byLink = new HashMap<>();
        for (Task t : tasks) {
            boolean unsentCanceled = false;
            synchronized (this) {
                if (t.pilot == null) { // not sent: if it waits in `unsent`, it is skipped there
                    unsentCanceled = transitions.advance(t, TaskState.CANCELED, Session.nowMicros(), 0, "");
                } else if (t.state() == TaskState.TMGR_STAGING_OUTPUT) { // its pilot is done with it: the staging's end is refused
                    unsentCanceled = transitions.advance(t, TaskState.CANCELED, Session.nowMicros(), 0,
                            "canceled while its output was staged");
                } else if (canceledStagingIn(t)) { // never sent: its staging's end finds it CANCELED
                    unsentCanceled = true;
                } else {
                    PilotLink l = roster.linkOf(t.pilot);
                    if (l != null && t.agentId >= 0) {
                        byLink.computeIfAbsent(l, k -> new ArrayList<>()).add(t.agentId);
                    } else if (t.agentId < 0) {
                        t.cancelAsked = true; // its batch is on its way: canceled once the pilot has taken it
                    }
                }
            }
            if (unsentCanceled) {
                // Told once the lock is let go: a callback that submits would otherwise wait for
                // an acceptance the pilot's reader cannot deliver without the lock.
                transitions.told(t, TaskState.CANCELED);
            }
        }
        for (Map.Entry<PilotLink, List<Integer>> e : byLink.entrySet()) {
            try {
                e.getKey().client.cancel(e.getValue());
            } catch (IOException ex) {
                // the reader sees the pilot gone and ends the tasks
            }
        }
    }

    /**
     * Cancels {@code t} if its input is still being staged; its staging thread moves it on
     * under the same lock, so that the task is either canceled here or on its way to the pilot
     * (and canceled once the pilot has taken it), never both.
     */
    private boolean canceledStagingIn(Task t) {
        synchronized (t) {
            return t.state() == TaskState.TMGR_STAGING_INPUT
                    && transitions.advance(t, TaskState.CANCELED, Session.nowMicros(), 0, "canceled while its input was staged");
        }
    }

    /** Whether {@link #close} was called: a pilot's connection ending then is no loss. */
    synchronized boolean closedByUser() {
        return closed;
    }

    /** Cancels what is unfinished and lets go of the pilots. */
    @Override
    public void close() {
        functionTasks.close();
        List<Task> unfinished = new ArrayList<>();
        List<PilotLink> all;
        synchronized (this) {
            closed = true;
            feeder.wake(); // the feeder, if there is one, ends
            if (detached) {
                for (PilotLink l : roster.links()) {
                    l.client.close(); // the DVM keeps the tasks
                }
                return;
            }
            unfinished.addAll(unsent.drain());
            unfinished.addAll(held.drain());
            for (PilotLink l : roster.links()) {
                unfinished.addAll(l.byId.values());
                unfinished.addAll(l.stagingIn);
            }
            all = List.copyOf(roster.links());
        }
        unfinished.addAll(staging.stagingOut()); // its pilot is done with it, its files may never come
        cancel(unfinished);
        for (PilotLink l : all) {
            l.client.close();
        }
    }
}
