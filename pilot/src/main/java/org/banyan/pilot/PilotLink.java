package org.banyan.pilot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmClient;

/**
 * A task manager's connection to one pilot's DVM: the tasks it holds there, the batches on
 * their way, and the reader that hands the pilot's updates to the manager. The fields the
 * manager reads and writes are guarded by the manager's lock.
 */
final class PilotLink {
    final Pilot pilot;
    final DvmClient client;
    /** What it could ever run. */
    final PilotFit fit;
    /** Its tasks by the agent's ids. */
    final Map<Integer, Task> byId = new HashMap<>();
    /** Tasks given to it so far (for choosing among pilots). */
    long given;
    /** Tasks sent to this pilot that have not ended. */
    int inFlight;
    /** How fast its tasks end: how many it may hold when other pilots could take them. */
    final EndRate ends = new EndRate();
    /** The connection ended; a batch it did not accept is no longer waited for. */
    volatile boolean gone;
    /** Why its DVM closed the connection, when it said ("it was stopped by banyan dvm stop"); else null. */
    volatile String goneWhy;

    private final TaskManager tmgr;
    /** Batches sent and not yet accepted, in order: the reader gives them their ids before any update of theirs. */
    private final Queue<List<Task>> sentBatches = new ConcurrentLinkedQueue<>();
    private final BlockingQueue<List<Integer>> accepted = new ArrayBlockingQueue<>(1);
    /** Tasks whose input is being staged on threads of their own (a close cancels them). */
    final java.util.Set<Task> stagingIn = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Tasks staged on their own threads, to be sent together by whichever of those threads gets there. */
    private final Queue<Task> readyToSend = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean sendingStaged = new java.util.concurrent.atomic.AtomicBoolean();
    /** What every task sent to this pilot sees of its pilot and session ({@link TaskVariables#ofPilot}). */
    private final Map<String, String> pilotVariables;

    /** Whether it may take tasks of {@code kind}: it could run them, and they name no other pilot. */
    boolean takes(UnsentTasks.Kind kind) {
        return (kind.pilot() == null || kind.pilot().equals(pilot.uid())) && fit.fits(kind.slots());
    }

    /** Connects to {@code pilot}'s DVM and learns what it fits; {@code detached}: the DVM keeps its tasks when this ends. */
    static PilotLink open(TaskManager tmgr, Pilot pilot, boolean detached) throws DvmClient.Unreachable, IOException {
        DvmClient client = DvmClient.connect(pilot.files(), "task manager");
        try {
            PilotFit fit = PilotFit.of(client.status()); // before the link's reader takes the connection
            if (detached) {
                client.send(new ClientMessage.Detach());
            }
            return new PilotLink(tmgr, pilot, client, fit);
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    PilotLink(TaskManager tmgr, Pilot pilot, DvmClient client, PilotFit fit) {
        this.tmgr = tmgr;
        this.pilot = pilot;
        this.client = client;
        this.fit = fit;
        this.pilotVariables = TaskVariables.ofPilot(pilot.uid(), tmgr.sessionDir(), pilot.sandbox());
        try { // its tasks are told it is there (RP_PILOT_SANDBOX), and may put files in it
            org.banyan.runtime.dvm.DvmFiles.makeDirectory(pilot.sandbox());
        } catch (IOException e) {
            // a task that looks will find it missing; nothing here depends on it
        }
        Thread.ofPlatform().daemon().name("tmgr-" + pilot.uid()).start(this::read);
    }

    private void read() {
        try {
            while (true) {
                switch (client.receive()) {
                    case ClientMessage.TasksAccepted(List<Integer> ids) when sentBatches.peek() instanceof Watched w -> {
                        sentBatches.poll();
                        watched(w, ids);
                        accepted.put(ids);
                    }
                    case ClientMessage.TasksAccepted(List<Integer> ids) -> {
                        List<Task> batch = sentBatches.poll();
                        List<Integer> canceled = new ArrayList<>();
                        synchronized (tmgr) {
                            for (int i = 0; batch != null && i < ids.size(); i++) {
                                Task t = batch.get(i);
                                t.agentId = ids.get(i);
                                t.pilot = pilot;
                                byId.put(ids.get(i), t);
                                if (t.cancelAsked) {
                                    canceled.add(t.agentId);
                                }
                            }
                        }
                        accepted.put(ids);
                        if (!canceled.isEmpty()) {
                            client.cancel(canceled); // asked while the batch was on its way
                        }
                    }
                    case ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> updates) -> updated(updates);
                    default -> {
                        // not for a task manager
                    }
                }
            }
        } catch (IOException e) {
            if (e instanceof org.banyan.runtime.dvm.ClientChannel.Closed) {
                goneWhy = e.getMessage();
            }
            // the pilot is FAILED before its tasks are: a callback of theirs that asks it sees why
            if (!tmgr.closedByUser()) { // not the manager's own close: the DVM went away
                pilot.lost(e);
            }
            tmgr.changes.pilotGone(this);
        } catch (InterruptedException e) {
            tmgr.changes.pilotGone(this);
        }
    }

    /**
     * Stages in and sends {@code batch}, tasks this link was given (counted in {@link #inFlight},
     * their pilot set); a task whose staging fails is FAILED here and never sent. A task with
     * files to stage in (or a directory to make) is staged on a thread of its own and sent
     * from there, with whatever else is staged by then: its files may be on a file system that
     * does not answer, and the sender held up every task of the manager behind it. Not for a
     * detached manager, whose submit returns the DVM's ids of all its tasks: staged here.
     */
    void send(List<Task> batch) {
        boolean detached = tmgr.isDetached();
        List<Task> sent = new ArrayList<>();
        int dropped = 0;
        for (Task t : batch) {
            long now = Session.nowMicros();
            tmgr.move(t, TaskState.TMGR_SCHEDULING, now, 0, pilot.uid());
            tmgr.move(t, TaskState.TMGR_STAGING_INPUT, now, 0, "");
            if (TaskStaging.stagesIn(t) && !detached) {
                stagingIn.add(t);
                TaskStaging.stagingThread("stage-in", () -> stagedIn(t, tmgr.staging.stageIn(t, pilot)));
            } else if (goesOn(t, detached ? tmgr.staging.stageIn(t, pilot) : null)) {
                sent.add(t);
            } else {
                dropped++;
            }
        }
        if (dropped > 0) {
            synchronized (tmgr) {
                inFlight -= dropped; // failed or canceled here, before the pilot saw them
            }
        }
        if (!sent.isEmpty()) {
            submit(sent);
        }
    }

    /**
     * Task {@code t}'s input is staged, or failed to be ({@code failed} says why): whether it
     * goes on to the pilot. Not when it failed, nor when it was canceled meanwhile.
     */
    private boolean goesOn(Task t, String failed) {
        if (failed != null) {
            tmgr.move(t, TaskState.FAILED, Session.nowMicros(), -1, "input staging: " + failed);
            return false;
        }
        tmgr.move(t, TaskState.AGENT_STAGING_INPUT_PENDING, Session.nowMicros(), 0, "");
        return !t.state().isFinal();
    }

    /** On task {@code t}'s staging thread: it goes on, with every task staged by then, or leaves the window. */
    private void stagedIn(Task t, String failed) {
        boolean on = goesOn(t, failed);
        stagingIn.remove(t);
        if (on) {
            readyToSend.add(t);
        } else {
            synchronized (tmgr) {
                tmgr.endedOn(this);
            }
        }
        while (!readyToSend.isEmpty() && sendingStaged.compareAndSet(false, true)) { // one batch at a time
            try {
                List<Task> batch = new ArrayList<>();
                for (Task r; (r = readyToSend.poll()) != null; ) {
                    batch.add(r);
                }
                if (!batch.isEmpty()) {
                    submit(batch);
                }
            } finally {
                sendingStaged.set(false);
            }
        }
    }

    /**
     * On the reader: updates of the tasks this link holds, in order. The manager's lock is taken
     * twice a batch, not twice an update, and the callbacks' scope is bound once: its lock is
     * contended (submitter, feeder, readers), and under C1 each entry to a contended monitor and
     * each binding is a call into the VM.
     */
    private void updated(List<ClientMessage.TaskUpdate> updates) {
        Task[] tasks = new Task[updates.size()];
        synchronized (tmgr) {
            for (int i = 0; i < tasks.length; i++) {
                tasks[i] = byId.get(updates.get(i).taskId());
            }
        }
        tmgr.transitions.inCallbacks(() -> {
            for (int i = 0; i < tasks.length; i++) {
                if (tasks[i] != null) {
                    tmgr.transitions.fromAgent(tasks[i], updates.get(i), tmgr.staging);
                }
            }
        });
        synchronized (tmgr) {
            for (int i = 0; i < tasks.length; i++) {
                // once a task, should a batch hold two of its updates; the agent's final word ends
                // it on this pilot, its output staging (on a thread of its own) ends it here
                if (tasks[i] != null && updates.get(i).state().isFinal() && byId.remove(updates.get(i).taskId()) != null) {
                    tmgr.endedOn(this);
                }
            }
        }
    }

    /**
     * Sends {@code sent} (tasks already counted in {@link #inFlight}) and waits for the pilot to
     * take them; if the connection fails first, they are the lost pilot's like its others.
     */
    void submit(List<Task> sent) {
        List<TaskRequest> requests = new ArrayList<>(sent.size());
        List<Task> unprepared = null;
        for (Task t : sent) {
            String env = t.description().namedEnv;
            List<String> enter = env == null ? List.of() : pilot.envCommands(env);
            if (enter == null) {
                unprepared = unprepared == null ? new ArrayList<>() : unprepared;
                unprepared.add(t);
                continue;
            }
            requests.add(t.request(pilotVariables, enter));
        }
        if (unprepared != null) {
            sent = new ArrayList<>(sent);
            sent.removeAll(unprepared);
            for (Task t : unprepared) {
                tmgr.failedOn(this, t, "named_env '" + t.description().namedEnv + "' is not prepared on " + pilot.uid()
                        + " (Pilot.prepareEnv)");
            }
            if (sent.isEmpty()) {
                return;
            }
        }
        try {
            synchronized (this) {
                sentBatches.add(sent);
                client.send(new ClientMessage.SubmitTasks(requests));
                awaitAccepted(sent);
            }
        } catch (IOException | InterruptedException e) {
            gone = true; // no more batches for it, whether or not its reader has noticed yet
            if (sentBatches.remove(sent)) {
                tmgr.changes.orphaned(this, sent);
            }
        }
    }

    /**
     * Tasks another program submitted and left running on this pilot (detached), followed from
     * here: {@code tasks[i]} is the DVM's task {@code ids[i]}. Their current states come first,
     * then every change, as for this manager's own.
     */
    void watch(List<Task> tasks, List<Integer> ids) throws IOException, InterruptedException {
        synchronized (this) {
            Watched w = new Watched(tasks, ids);
            sentBatches.add(w);
            client.send(new ClientMessage.WatchTasks(ids));
            awaitAccepted(w);
        }
    }

    /** A batch that asked to follow tasks: the DVM answers with those it knows, in any order. */
    private static final class Watched extends java.util.AbstractList<Task> {
        final List<Task> tasks;
        final List<Integer> ids;

        Watched(List<Task> tasks, List<Integer> ids) {
            this.tasks = tasks;
            this.ids = ids;
        }

        @Override
        public Task get(int i) {
            return tasks.get(i);
        }

        @Override
        public int size() {
            return tasks.size();
        }
    }

    private void watched(Watched w, List<Integer> known) {
        java.util.Set<Integer> knownIds = new java.util.HashSet<>(known);
        List<Task> unknown = new ArrayList<>();
        synchronized (tmgr) {
            for (int i = 0; i < w.tasks.size(); i++) {
                Task t = w.tasks.get(i);
                int id = w.ids.get(i);
                t.agentId = id;
                t.pilot = pilot;
                if (knownIds.contains(id)) {
                    byId.put(id, t);
                } else {
                    unknown.add(t);
                }
            }
        }
        for (Task t : unknown) {
            tmgr.failedOn(this, t, "the DVM of " + pilot.uid() + " has no task " + t.agentId
                    + " (never submitted there, or ended and forgotten)");
        }
    }

    /**
     * Waits for the pilot to accept {@code sent}, or for its connection to end: then the batch
     * is dealt with as its other tasks (a sender waiting for ever held up every later batch).
     */
    private void awaitAccepted(List<Task> sent) throws InterruptedException {
        while (accepted.poll(100, TimeUnit.MILLISECONDS) == null) {
            if (gone) {
                if (sentBatches.remove(sent)) {
                    tmgr.changes.orphaned(this, sent);
                }
                return;
            }
        }
    }

    /**
     * The connection is over: the tasks of the batches it never accepted. A sender still waiting
     * for one sees {@link #gone}, and whichever of the two takes a batch out of the queue deals
     * with its tasks.
     */
    List<Task> unaccepted() {
        gone = true;
        List<Task> tasks = new ArrayList<>();
        for (List<Task> b; (b = sentBatches.poll()) != null; ) {
            tasks.addAll(b);
        }
        return tasks;
    }
}
