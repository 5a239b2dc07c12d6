package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.job.WireUp;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskSpec;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * The DVM's decisions without a socket: clients, tasks and their states driven through
 * {@link DvmCore} as its driver would, with daemons modelled as the real ones keep their tasks
 * (a task queued behind another starts when that one ends; a signalled queued task never starts).
 */
class DvmCoreTest {
    static final HeadSettings SETTINGS = new HeadSettings(0, 1000, 10_000);

    /** The virtual clocks of a test. */
    static final class Clock implements DvmClock {
        long micros = 1_000_000;

        @Override
        public long wallMicros() {
            return micros;
        }

        @Override
        public long nanos() {
            return micros * 1000;
        }
    }

    /** A core brought up over {@code slots.length} hosts, with what its driver would hold. */
    static final class Harness {
        final List<Node> nodes = new ArrayList<>();
        final Clock clock = new Clock();
        final DvmCore core;
        final List<DvmAction> log = new ArrayList<>();
        final Map<Integer, FakeDaemon> daemons = new HashMap<>();
        /** Per client: what it was sent, in order. */
        final Map<Integer, List<ClientMessage>> inbox = new HashMap<>();
        /** What every connected client was sent. */
        final List<ClientMessage> toEveryone = new ArrayList<>();
        /** Timers armed and not fired yet. */
        final List<DvmEvent> timers = new ArrayList<>();
        int finished = -1;
        /** MPI tasks' jobs whose sandbox the driver is making: answered at once unless held here. */
        final List<Integer> preparing = new ArrayList<>();
        boolean holdPreparations;

        Harness(int... slots) {
            for (int i = 0; i < slots.length; i++) {
                nodes.add(new Node("n" + i, slots[i]));
            }
            core = new DvmCore(nodes, SETTINGS, TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"), 0, 42, clock);
            apply(core.start("head:1", "inproc"));
            for (int d = 0; d < slots.length; d++) {
                daemons.put(d, new FakeDaemon(d));
                apply(core.handle(new DvmEvent.Head(new HeadEvent.FromDaemon(d, new OverlayMessage.DaemonHello(d, "n" + d, 1, "x")))));
                apply(core.handle(new DvmEvent.Head(new HeadEvent.FromDaemon(d, new OverlayMessage.Contacts(Map.of(d, "h" + d + ":1"))))));
            }
        }

        void handle(DvmEvent e) {
            clock.micros += 100;
            apply(core.handle(e));
        }

        void say(int client, ClientMessage m) {
            handle(new DvmEvent.ClientSaid(client, m));
        }

        void apply(List<DvmAction> actions) {
            List<Integer> closed = new ArrayList<>();
            List<Integer> prepared = new ArrayList<>();
            for (DvmAction a : actions) {
                log.add(a);
                switch (a) {
                    case DvmAction.PrepareTaskJob p -> (holdPreparations ? preparing : prepared).add(p.jobId());
                    case DvmAction.CloseTaskOutput(int task) -> closed.add(task); // as the driver: closed, then said
                    case DvmAction.ToDaemon(int d, OverlayMessage.RunTasks r) -> daemons.get(r.to()).run(r);
                    case DvmAction.ToDaemon(int d, OverlayMessage.SignalTasks s) -> daemons.get(s.to()).signal(s);
                    case DvmAction.ToDaemon(int d, OverlayMessage.LaunchJob(var job)) -> daemons.get(d).launch(job);
                    case DvmAction.ToDaemon(int d, OverlayMessage.TerminateJob(int job, int grace)) -> daemons.get(d).endJob(job);
                    case DvmAction.ToDaemon(int d, OverlayMessage.KillJob(int job)) -> daemons.get(d).endJob(job);
                    case DvmAction.ToClient(int c, ClientMessage m) -> inbox.computeIfAbsent(c, k -> new ArrayList<>()).add(m);
                    case DvmAction.ToEveryClient(ClientMessage m) -> toEveryone.add(m);
                    case DvmAction.Arm(DvmEvent e, long delay) -> timers.add(e);
                    case DvmAction.Finish(int status) -> finished = status;
                    default -> {
                        // logs, publishing, daemons' other messages
                    }
                }
            }
            for (int task : closed) {
                handle(new DvmEvent.TaskOutputClosed(task));
            }
            for (int job : prepared) {
                handle(new DvmEvent.TaskJobPrepared(job, WireUp.BOTH));
            }
        }

        /** Fires the armed flush of task states (what the driver does 4 ms later). */
        void flush() {
            List<DvmEvent> due = new ArrayList<>(timers);
            timers.clear();
            for (DvmEvent e : due) {
                if (e instanceof DvmEvent.FlushUpdates) {
                    handle(e);
                } else {
                    timers.add(e);
                }
            }
        }

        /** Daemon {@code d} reports these tasks ended. */
        void ended(int d, List<OverlayMessage.RankExited> ends) {
            handle(new DvmEvent.Head(new HeadEvent.FromDaemon(d, new OverlayMessage.RanksExited(ends))));
        }

        /** Every task state a client was sent, by task. */
        Map<Integer, List<TaskState>> states(int client) {
            Map<Integer, List<TaskState>> out = new LinkedHashMap<>();
            for (ClientMessage m : inbox.getOrDefault(client, List.of())) {
                if (m instanceof ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> updates)) {
                    for (ClientMessage.TaskUpdate u : updates) {
                        out.computeIfAbsent(u.taskId(), k -> new ArrayList<>()).add(u.state());
                    }
                }
            }
            return out;
        }

        /** Every task update a client was sent, in order. */
        List<ClientMessage.TaskUpdate> updates(int client) {
            List<ClientMessage.TaskUpdate> out = new ArrayList<>();
            for (ClientMessage m : inbox.getOrDefault(client, List.of())) {
                if (m instanceof ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> got)) {
                    out.addAll(got);
                }
            }
            return out;
        }

        List<Integer> accepted(int client) {
            List<Integer> ids = new ArrayList<>();
            for (ClientMessage m : inbox.getOrDefault(client, List.of())) {
                if (m instanceof ClientMessage.TasksAccepted(List<Integer> got)) {
                    ids.addAll(got);
                }
            }
            return ids;
        }
    }

    /** A daemon's tasks as {@code LocalTasks} keeps them: running ones, and chains queued behind them. */
    static final class FakeDaemon {
        final int id;
        final Set<Integer> running = new java.util.LinkedHashSet<>();
        final Map<Integer, TaskSpec> queued = new HashMap<>();
        final Map<Integer, Integer> waitsFor = new HashMap<>();
        /** Tasks signalled while running: they end with that signal's status. */
        final Map<Integer, Integer> dying = new HashMap<>();
        /** Ends of queued tasks that never started, reported with the next batch. */
        final List<OverlayMessage.RankExited> dropped = new ArrayList<>();
        boolean lost;
        /** The ranks of jobs (MPI tasks') placed here, by job; one core each. */
        final Map<Integer, Set<Integer>> jobRanks = new java.util.LinkedHashMap<>();
        /** Jobs told to end here: their ranks end with SIGTERM's status. */
        final Set<Integer> endingJobs = new HashSet<>();

        FakeDaemon(int id) {
            this.id = id;
        }

        /** A job's launch comes to every child of the head: the ranks placed on this host run. */
        void launch(org.banyan.core.job.JobDescription job) {
            if (lost) {
                return;
            }
            org.banyan.core.job.RankMap map = org.banyan.core.job.RankMap.of(job);
            Set<Integer> here = new java.util.TreeSet<>();
            for (int r = 0; r < map.size(); r++) {
                if (map.nodeOf(r) == id) {
                    here.add(r);
                }
            }
            if (!here.isEmpty()) {
                jobRanks.put(job.jobId(), here);
            }
        }

        void endJob(int job) {
            if (jobRanks.containsKey(job)) {
                endingJobs.add(job);
            }
        }

        int jobRanksRunning() {
            int n = 0;
            for (Set<Integer> ranks : jobRanks.values()) {
                n += ranks.size();
            }
            return n;
        }

        /** A rank of a job placed here ends; its job's last rank here forgets the job. */
        OverlayMessage.RankExited endRank(int job, int status) {
            Set<Integer> ranks = jobRanks.get(job);
            int rank = ranks.iterator().next();
            ranks.remove(rank);
            boolean ending = endingJobs.contains(job);
            if (ranks.isEmpty()) {
                jobRanks.remove(job);
                endingJobs.remove(job);
            }
            return new OverlayMessage.RankExited(job, rank, ending ? 143 : status, "");
        }

        boolean busy() {
            return !running.isEmpty() || !dropped.isEmpty() || !jobRanks.isEmpty();
        }

        void run(OverlayMessage.RunTasks m) {
            for (TaskSpec t : m.tasks()) {
                int after = t.after();
                if (after != 0 && (running.contains(after) || waitsFor.containsKey(after)) && !queued.containsKey(after)) {
                    queued.put(after, t);
                    waitsFor.put(t.taskId(), after);
                } else {
                    running.add(t.taskId());
                }
            }
        }

        void signal(OverlayMessage.SignalTasks m) {
            for (int id : m.taskIds()) {
                Integer before = waitsFor.remove(id);
                if (before != null) {
                    queued.remove(before);
                    TaskSpec behind = queued.remove(id);
                    if (behind != null) {
                        queued.put(before, behind);
                        waitsFor.put(behind.taskId(), before);
                    }
                    dropped.add(new OverlayMessage.RankExited(OverlayMessage.TASKS, id, 128 + m.signal(), ""));
                } else if (running.contains(id) && m.signal() != 0) {
                    dying.put(id, 128 + m.signal());
                }
            }
        }

        /** Running task {@code id}'s process ends: the one queued behind it starts. */
        OverlayMessage.RankExited end(int id, int status) {
            running.remove(id);
            TaskSpec next = queued.remove(id);
            if (next != null) {
                waitsFor.remove(next.taskId());
                running.add(next.taskId());
            }
            Integer signalled = dying.remove(id);
            return new OverlayMessage.RankExited(OverlayMessage.TASKS, id, signalled != null ? signalled : status, "");
        }
    }

    /** An MPI task of {@code ranks} ranks, a core each. */
    static TaskRequest mpiTask(int ranks, boolean restartable) {
        return new TaskRequest("m", "./prog", List.of(), Map.of(), "/tmp/s", "o", "e", null, List.of(), List.of(),
                new SlotRequest(ranks, 1, 0, null, false), 0, true, 0, restartable, List.of());
    }

    static TaskRequest task(String name, int cores, boolean restartable) {
        return new TaskRequest(name, "/bin/true", List.of(), Map.of(), "/tmp", "o", "e", "/dev/null", List.of(), List.of(),
                new SlotRequest(1, cores, 0, null, false), 0, false, 0, restartable, List.of());
    }

    @Test
    void itComesUpAndPublishesItsContactOnceEveryDaemonIsIn() {
        Harness h = new Harness(2, 2);
        assertThat(h.log).filteredOn(DvmAction.Publish.class::isInstance)
                .containsExactly(new DvmAction.Publish("2 host(s), 4 slot(s)"));
        assertThat(h.core.isReady()).isTrue();
        assertThat(h.log).filteredOn(DvmAction.SpawnDaemon.class::isInstance).hasSize(2);
    }

    @Test
    void aClientsTasksRunAndItIsToldTheirStatesInOneMessagePerFlush() {
        Harness h = new Harness(2);
        h.say(1, new ClientMessage.SubmitTasks(List.of(task("a", 1, false), task("b", 1, false), task("c", 1, false))));
        List<Integer> ids = h.accepted(1);
        assertThat(ids).hasSize(3);
        assertThat(h.daemons.get(0).running).as("two cores, two running, one queued on the daemon").hasSize(2);
        assertThat(h.timers).as("one flush armed").filteredOn(DvmEvent.FlushUpdates.class::isInstance).hasSize(1);
        int first = h.daemons.get(0).running.iterator().next();
        h.ended(0, List.of(h.daemons.get(0).end(first, 0)));
        assertThat(h.timers).as("still one").filteredOn(DvmEvent.FlushUpdates.class::isInstance).hasSize(1);
        for (int id : List.copyOf(h.daemons.get(0).running)) {
            h.ended(0, List.of(h.daemons.get(0).end(id, id == ids.getLast() ? 3 : 0)));
        }
        h.flush();
        Map<Integer, List<TaskState>> states = h.states(1);
        assertThat(states.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(states.get(ids.getLast())).last().isEqualTo(TaskState.FAILED);
        assertThat(states.get(ids.getFirst())).last().isEqualTo(TaskState.DONE);
        assertThat(h.inbox.get(1)).filteredOn(ClientMessage.TaskUpdates.class::isInstance).as("all in one flush").hasSize(1);
        assertThat(h.core.freeCoresOn(0)).isEqualTo(2);
    }

    /**
     * An MPI task's job waits for its sandbox and program (the driver's, off the loop): its cores
     * are held meanwhile; a cancel ends it at once and frees them, and the late answer starts
     * nothing on any daemon.
     */
    @Test
    void anMpiTaskCanceledWhileItsSandboxIsMadeEndsAtOnceAndStartsNothing() {
        Harness h = new Harness(2);
        h.holdPreparations = true;
        h.log.clear();
        h.say(1, new ClientMessage.SubmitTasks(List.of(new TaskRequest("m", "./prog", List.of(), Map.of(), "/tmp/s", "o", "e",
                null, List.of(), List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, 0, false, List.of()))));
        int id = h.accepted(1).getFirst();
        assertThat(h.preparing).hasSize(1);
        assertThat(h.core.freeCoresOn(0)).as("held for it").isZero();
        assertThat(h.log).noneMatch(DvmAction.ToDaemon.class::isInstance);

        h.say(1, new ClientMessage.CancelTasks(List.of(id)));
        h.flush();
        assertThat(h.states(1).get(id)).last().isEqualTo(TaskState.CANCELED);
        assertThat(h.core.freeCoresOn(0)).isEqualTo(2);
        h.log.clear();
        h.handle(new DvmEvent.TaskJobPrepared(h.preparing.getFirst(), WireUp.PMIX));
        assertThat(h.log).as("nothing started").noneMatch(a -> a instanceof DvmAction.ToDaemon
                || a instanceof DvmAction.OpenTaskOutput);
    }

    /**
     * An MPI task that fails says why, as a task of one process does: the head's report of the
     * rank that could not start (or failed), then its stderr's last lines. It said nothing: a rank
     * whose program could not be run left the task FAILED with 127, an empty detail and stderr.
     */
    @Test
    void aFailedMpiTaskSaysWhichRankFailedAndWhyWithItsStderrsTail() {
        Harness h = new Harness(2);
        h.say(1, new ClientMessage.SubmitTasks(List.of(mpiTask(2, false))));
        int id = h.accepted(1).getFirst();
        int job = h.daemons.get(0).jobRanks.keySet().iterator().next();
        byte[] err = ("x".repeat(3000) + "\nfirst\n" + "line\n".repeat(12) + "last words\n").getBytes(StandardCharsets.UTF_8);
        h.handle(new DvmEvent.Head(new HeadEvent.FromDaemon(0, new OverlayMessage.Output(job, 1, 2, err))));
        h.daemons.get(0).jobRanks.get(job).remove(0);
        h.ended(0, List.of(new OverlayMessage.RankExited(job, 0, 127, "./prog: Permission denied")));
        h.ended(0, List.of(h.daemons.get(0).endRank(job, 0)));
        h.flush();
        ClientMessage.TaskUpdate failed = h.updates(1).stream().filter(u -> u.taskId() == id && u.state() == TaskState.FAILED)
                .findFirst().orElseThrow();
        assertThat(failed.exitCode()).isEqualTo(127);
        assertThat(failed.detail()).isEqualTo("rank 0 on n0 could not start: ./prog: Permission denied\n"
                + "line\n".repeat(9) + "last words");
    }

    @Test
    void anMpiTaskThatFailsWithNothingOnItsStderrNamesItsRank() {
        Harness h = new Harness(2);
        h.say(1, new ClientMessage.SubmitTasks(List.of(mpiTask(2, false))));
        int id = h.accepted(1).getFirst();
        int job = h.daemons.get(0).jobRanks.keySet().iterator().next();
        h.ended(0, List.of(h.daemons.get(0).endRank(job, 3)));
        h.ended(0, List.of(h.daemons.get(0).endRank(job, 0)));
        h.flush();
        ClientMessage.TaskUpdate failed = h.updates(1).stream().filter(u -> u.taskId() == id && u.state() == TaskState.FAILED)
                .findFirst().orElseThrow();
        assertThat(failed.detail()).startsWith("rank 0 on n0 exited with status 3");
    }

    @Test
    void aClientThatGoesAwayTakesItsTasksUnlessItDetachedThem() {
        Harness h = new Harness(1);
        h.say(1, new ClientMessage.SubmitTasks(List.of(task("kept", 1, false))));
        h.say(1, new ClientMessage.Detach());
        h.say(2, new ClientMessage.SubmitTasks(List.of(task("taken", 1, false))));
        int kept = h.accepted(1).getFirst();
        int taken = h.accepted(2).getFirst();
        h.handle(new DvmEvent.ClientGone(2));
        h.handle(new DvmEvent.ClientGone(1));
        FakeDaemon d = h.daemons.get(0);
        assertThat(d.running).containsExactly(kept);
        assertThat(d.dropped).extracting(OverlayMessage.RankExited::rank).containsExactly(taken);
        h.say(3, new ClientMessage.WatchTasks(List.of(kept)));
        h.ended(0, List.of(d.end(kept, 0)));
        h.flush();
        assertThat(h.states(3).get(kept)).as("banyan wait sees the detached task end").endsWith(TaskState.DONE);
    }

    @Test
    void requestsBeforeTheDaemonsAreUpAreRefusedAndStatusCountsTasks() {
        List<Node> two = List.of(new Node("n0", 1), new Node("n1", 1));
        DvmCore core = new DvmCore(two, SETTINGS, TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"), 0, 42,
                new Clock());
        core.start("head:1", "inproc");
        List<DvmAction> a = core.handle(new DvmEvent.ClientSaid(1, new ClientMessage.SubmitTasks(List.of(task("x", 1, false)))));
        assertThat(a).containsExactly(new DvmAction.ToClient(1, new ClientMessage.TasksAccepted(List.of())));

        Harness h = new Harness(1);
        h.say(1, new ClientMessage.SubmitTasks(List.of(task("a", 1, false), task("b", 1, false))));
        h.say(1, new ClientMessage.StatusRequest());
        ClientMessage.Status status = (ClientMessage.Status) h.inbox.get(1).getLast();
        assertThat(status.tasks().running()).isEqualTo(1);
        assertThat(status.hosts()).extracting(ClientMessage.HostStatus::slotsInUse).containsExactly(1);
    }

    @Test
    void aStopShutsTheDaemonsDownAndFinishes() {
        Harness h = new Harness(1, 1);
        h.say(1, new ClientMessage.Stop());
        assertThat(h.log).contains(new DvmAction.Log("stop asked by client 1"));
        for (int d = 0; d < 2; d++) {
            h.handle(new DvmEvent.Head(new HeadEvent.DaemonLost(d, "connection closed")));
        }
        assertThat(h.finished).isZero();
        assertThat(h.core.handle(new DvmEvent.ClientSaid(1, new ClientMessage.StatusRequest()))).as("nothing after the end").isEmpty();
    }

    /**
     * A stopping DVM tells every client connected why, once, before the driver closes the
     * connections (they said only "lost the pilot" and "lost the DVM (it closed the
     * connection)"); the fates of one-process tasks stay the clients' (a task manager moves
     * restartable ones to another pilot); a task of several ranks, whose job the stop ends,
     * fails saying so.
     */
    @Test
    void aStoppingDvmTellsEveryClientWhyOnce() {
        Harness h = new Harness(1, 1);
        TaskRequest one = task("one", 1, false);
        TaskRequest wide = new TaskRequest("wide", one.executable(), one.args(), one.env(), one.sandbox(), one.stdout(),
                one.stderr(), one.stdin(), one.preExec(), one.postExec(), new SlotRequest(2, 1, 0, null, false), 0, false, 0,
                false, List.of());
        h.say(1, new ClientMessage.SubmitTasks(List.of(wide, one)));
        List<Integer> ids = h.accepted(1);
        h.say(2, new ClientMessage.Stop());
        h.apply(h.core.closing());
        assertThat(h.finished).isZero();
        assertThat(h.toEveryone).containsExactly(new ClientMessage.Closing("it was stopped by banyan dvm stop"));
        List<ClientMessage.TaskUpdate> updates = new ArrayList<>();
        h.inbox.get(1).stream().filter(ClientMessage.TaskUpdates.class::isInstance)
                .forEach(m -> updates.addAll(((ClientMessage.TaskUpdates) m).updates()));
        assertThat(updates).filteredOn(u -> u.state().isFinal()).singleElement()
                .satisfies(u -> assertThat(u.taskId()).isEqualTo(ids.get(0)))
                .satisfies(u -> assertThat(u.detail()).isEqualTo("ended as its DVM stopped (it was stopped by banyan dvm stop)"));

        Harness signalled = new Harness(1);
        signalled.handle(new DvmEvent.Head(new HeadEvent.UserSignal(15)));
        signalled.handle(new DvmEvent.Head(new HeadEvent.UserSignal(15)));
        assertThat(signalled.toEveryone).containsExactly(new ClientMessage.Closing("it was stopped by SIGTERM"));

        Harness told = new Harness(1);
        told.handle(new DvmEvent.Stop("the program that started it ended"));
        assertThat(told.finished).isZero();
        assertThat(told.toEveryone).containsExactly(new ClientMessage.Closing("the program that started it ended"));
    }

    /** The dashboard's view: counts, the failure with its name and detail, starts and ends per second, the log. */
    @Test
    void theSnapshotCountsTasksAndKeepsTheFailures() {
        Harness h = new Harness(2);
        TaskRequest tagged = task("bad", 1, false);
        tagged = new TaskRequest(tagged.uid(), tagged.executable(), tagged.args(), tagged.env(), tagged.sandbox(), tagged.stdout(),
                tagged.stderr(), tagged.stdin(), tagged.preExec(), tagged.postExec(), new SlotRequest(1, 1, 0, "grp", false), 0, false,
                0, false, List.of());
        h.say(1, new ClientMessage.SubmitTasks(List.of(task("ok", 1, false), tagged, task("later", 1, false))));
        List<Integer> ids = h.accepted(1);
        DvmSnapshot running = h.core.snapshot(10, 5);
        assertThat(running.tasks().running()).isEqualTo(2);
        assertThat(running.tasks().waiting()).as("the third, queued on the daemon behind one").isEqualTo(1);
        assertThat(running.tasks().slowest()).extracting(DvmSnapshot.Running::name).containsExactly("ok", "bad");
        FakeDaemon d = h.daemons.get(0);
        h.ended(0, List.of(new OverlayMessage.RankExited(OverlayMessage.TASKS, ids.get(1), 3, "boom")));
        d.running.remove(ids.get(1));
        h.ended(0, List.of(d.end(ids.get(0), 0)));
        DvmSnapshot s = h.core.snapshot(10, 5);
        assertThat(s.tasks().done()).isEqualTo(1);
        assertThat(s.tasks().failed()).isEqualTo(1);
        assertThat(s.tasks().failures()).singleElement().satisfies(f -> {
            assertThat(f.name()).isEqualTo("bad");
            assertThat(f.tag()).isEqualTo("grp");
            assertThat(f.exitCode()).isEqualTo(3);
            assertThat(f.detail()).contains("boom");
        });
        assertThat(java.util.Arrays.stream(s.tasks().startedPerSecond()).sum()).isEqualTo(3);
        assertThat(java.util.Arrays.stream(s.tasks().endedPerSecond()).sum()).isEqualTo(2);
        assertThat(s.decisions()).extracting(DvmSnapshot.Decision::line).contains("client 1 submitted 3 task(s)");
        assertThat(s.hosts()).singleElement().satisfies(host -> assertThat(host.slotsInUse()).isEqualTo(1));
    }

    /** Found by the random run below: a task only a lost host could run waited for ever in AGENT_SCHEDULING. */
    @Test
    void aTaskThatNoHostLeftCanRunFailsSayingWhy() {
        Harness h = new Harness(1, 2);
        h.say(1, new ClientMessage.SubmitTasks(List.of(task("big", 2, false), task("big too", 2, false), task("small", 1, false))));
        List<Integer> ids = h.accepted(1);
        h.handle(new DvmEvent.Head(new HeadEvent.DaemonLost(1, "connection closed")));
        h.flush();
        List<ClientMessage.TaskUpdate> updates = new ArrayList<>();
        h.inbox.get(1).stream().filter(ClientMessage.TaskUpdates.class::isInstance)
                .forEach(m -> updates.addAll(((ClientMessage.TaskUpdates) m).updates()));
        assertThat(updates).filteredOn(u -> u.taskId() == ids.get(1)).last()
                .satisfies(u -> assertThat(u.state()).isEqualTo(TaskState.FAILED))
                .satisfies(u -> assertThat(u.detail()).isEqualTo("cannot run on this pilot any more: a rank of 2 cores does not fit "
                        + "any node left (the largest has 1); lost the daemon on n1: connection closed"));
        assertThat(h.states(1).get(ids.get(2))).as("the one-core task runs on n0").contains(TaskState.AGENT_EXECUTING);
    }

    /**
     * Clients submit, cancel, detach and go away while daemons end tasks in random order and
     * hosts are lost; after every event: no host runs more cores than it has and the core's free
     * count stays in range; at the end every task a staying client submitted had exactly one
     * final state, its states in order, and every core of a serving host is free again.
     */
    @Test
    void randomClientsAndDaemonsNeverGiveACoreOutTwiceAndEveryTaskEndsOnce() {
        for (int seed = 1; seed <= 300; seed++) {
            randomRun(seed);
        }
    }

    private static void randomRun(long seed) {
        Random rnd = new Random(seed);
        int hosts = 1 + rnd.nextInt(4);
        int[] slots = new int[hosts];
        for (int i = 0; i < hosts; i++) {
            slots[i] = 1 + rnd.nextInt(4);
        }
        Harness h = new Harness(slots);
        h.holdPreparations = true; // MPI tasks' sandboxes answer late, in any order, or never before their end
        Map<Integer, Integer> coresOf = new HashMap<>();
        Set<Integer> goneClients = new HashSet<>();
        Set<Integer> detached = new HashSet<>();
        Set<Integer> lostHosts = new HashSet<>();
        int clients = 1 + rnd.nextInt(3);
        for (int step = 0; step < 250; step++) {
            int what = rnd.nextInt(100);
            int client = 1 + rnd.nextInt(clients);
            if (what < 25 && !goneClients.contains(client)) {
                List<TaskRequest> bag = new ArrayList<>();
                List<Integer> cores = new ArrayList<>();
                for (int i = rnd.nextInt(6); i >= 0; i--) {
                    int c = 1 + rnd.nextInt(2);
                    bag.add(rnd.nextInt(4) == 0 ? mpiTask(c, rnd.nextBoolean()) : task("t", c, rnd.nextBoolean()));
                    cores.add(c);
                }
                int before = h.accepted(client).size();
                h.say(client, new ClientMessage.SubmitTasks(bag));
                List<Integer> ids = h.accepted(client).subList(before, h.accepted(client).size());
                for (int i = 0; i < ids.size(); i++) {
                    coresOf.put(ids.get(i), cores.get(i));
                }
            } else if (what < 80 && what >= 70 && !h.preparing.isEmpty()) {
                int job = h.preparing.remove(rnd.nextInt(h.preparing.size()));
                h.handle(rnd.nextInt(10) == 0 ? new DvmEvent.TaskJobUnprepared(job, "./prog: cannot make its directory /s (Permission denied)")
                        : new DvmEvent.TaskJobPrepared(job, WireUp.BOTH));
            } else if (what < 80) {
                List<Integer> alive = new ArrayList<>();
                for (FakeDaemon d : h.daemons.values()) {
                    if (!d.lost && d.busy()) {
                        alive.add(d.id);
                    }
                }
                if (!alive.isEmpty()) {
                    FakeDaemon d = h.daemons.get(alive.get(rnd.nextInt(alive.size())));
                    List<OverlayMessage.RankExited> ends = new ArrayList<>(d.dropped);
                    d.dropped.clear();
                    List<Integer> running = new ArrayList<>(d.running);
                    for (int n = rnd.nextInt(3); n >= 0 && !running.isEmpty(); n--) {
                        ends.add(d.end(running.remove(rnd.nextInt(running.size())), rnd.nextInt(10) == 0 ? 1 : 0));
                    }
                    if (!d.jobRanks.isEmpty() && rnd.nextBoolean()) {
                        List<Integer> jobs = new ArrayList<>(d.jobRanks.keySet());
                        ends.add(d.endRank(jobs.get(rnd.nextInt(jobs.size())), rnd.nextInt(10) == 0 ? 1 : 0));
                    }
                    h.ended(d.id, ends);
                }
            } else if (what < 86) {
                List<Integer> mine = h.accepted(client);
                if (!mine.isEmpty()) {
                    h.say(client, new ClientMessage.CancelTasks(List.of(mine.get(rnd.nextInt(mine.size())))));
                }
            } else if (what < 89 && !goneClients.contains(client)) {
                if (rnd.nextBoolean()) {
                    h.say(client, new ClientMessage.Detach());
                    detached.add(client);
                }
                h.handle(new DvmEvent.ClientGone(client));
                goneClients.add(client);
            } else if (what < 91 && hosts > 1) {
                int lost = rnd.nextInt(hosts);
                if (lostHosts.add(lost)) {
                    h.daemons.get(lost).lost = true;
                    h.handle(new DvmEvent.Head(new HeadEvent.DaemonLost(lost, "connection closed")));
                }
            } else {
                h.flush();
            }
            check(h, slots, coresOf, seed);
            if (h.finished >= 0) {
                return; // every host lost: the DVM ends
            }
        }
        // drain: every sandbox answers and every daemon ends what it runs until nothing is left
        for (int round = 0; round < 10_000; round++) {
            boolean any = false;
            while (!h.preparing.isEmpty()) {
                h.handle(new DvmEvent.TaskJobPrepared(h.preparing.removeFirst(), WireUp.BOTH));
                any = true;
                check(h, slots, coresOf, seed);
            }
            for (FakeDaemon d : h.daemons.values()) {
                if (!d.lost && d.busy()) {
                    List<OverlayMessage.RankExited> ends = new ArrayList<>(d.dropped);
                    d.dropped.clear();
                    for (int id : List.copyOf(d.running)) {
                        ends.add(d.end(id, 0));
                    }
                    for (int job : List.copyOf(d.jobRanks.keySet())) {
                        while (d.jobRanks.containsKey(job)) {
                            ends.add(d.endRank(job, 0));
                        }
                    }
                    h.ended(d.id, ends);
                    any = true;
                    check(h, slots, coresOf, seed);
                }
            }
            if (!any) {
                break;
            }
        }
        h.flush();
        for (int client = 1; client <= clients; client++) {
            if (goneClients.contains(client)) {
                continue;
            }
            Map<Integer, List<TaskState>> states = h.states(client);
            for (int id : h.accepted(client)) {
                List<TaskState> seen = states.get(id);
                assertThat(seen).as("seed %d: task %d was told of", seed, id).isNotNull();
                assertThat(seen.stream().filter(TaskState::isFinal).count()).as("seed %d: task %d %s", seed, id, seen).isEqualTo(1);
                assertThat(seen.getLast().isFinal()).as("seed %d: nothing after the end of %d: %s", seed, id, seen).isTrue();
                for (int i = 1; i < seen.size(); i++) {
                    boolean forward = seen.get(i).ordinal() > seen.get(i - 1).ordinal();
                    boolean restarted = seen.get(i) == TaskState.AGENT_SCHEDULING && !lostHosts.isEmpty();
                    assertThat(forward || restarted).as("seed %d: task %d went %s", seed, id, seen).isTrue();
                }
            }
        }
        for (int i = 0; i < slots.length; i++) {
            if (!lostHosts.contains(i)) {
                assertThat(h.core.freeCoresOn(i)).as("seed %d: host %d's cores all free at the end", seed, i).isEqualTo(slots[i]);
            }
        }
    }

    private static void check(Harness h, int[] slots, Map<Integer, Integer> coresOf, long seed) {
        for (int i = 0; i < slots.length; i++) {
            FakeDaemon d = h.daemons.get(i);
            if (d.lost) {
                continue;
            }
            int busy = d.jobRanksRunning(); // a core each
            for (int id : d.running) {
                busy += coresOf.get(id);
            }
            assertThat(busy).as("seed %d: host %d runs %s and job ranks %s (ending %s) on %d cores", seed, i, d.running, d.jobRanks, d.endingJobs, slots[i]).isLessThanOrEqualTo(slots[i]);
            assertThat(h.core.freeCoresOn(i)).as("seed %d: host %d's free count", seed, i).isBetween(0, slots[i])
                    .isLessThanOrEqualTo(slots[i] - busy);
        }
    }
}
