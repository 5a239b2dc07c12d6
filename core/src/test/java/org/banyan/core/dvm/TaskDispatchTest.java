package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * What a long-lived DVM remembers of finished tasks: it used to keep every one (about 110 bytes
 * each, a gigabyte an hour at a few thousand tasks a second).
 */
class TaskDispatchTest {
    /** What the dispatcher asked for, in order: messages to clients among them. */
    private final List<DvmAction> actions = new ArrayList<>();
    /** The jobs {@link #ready} answered for. */
    private final java.util.Set<Integer> answered = new java.util.HashSet<>();

    @Test
    void aWaitingSubmittersTasksAreForgottenOnceItHasTheirEnd() throws Exception {
        TaskDispatch d = dispatch(1_000);
        Client s = session(1);
        run(d, s, 50);
        assertThat(d.known()).isZero();
    }

    @Test
    void detachedTasksAreKeptForBanyanWaitTheLatestFirst() throws Exception {
        TaskDispatch d = dispatch(30);
        Client s = session(1);
        s.detached = true;
        List<Integer> ids = run(d, s, 50);
        assertThat(d.known()).isEqualTo(30);
        actions.clear();
        d.watch(session(2), ids);
        List<ClientMessage> toWaiter = actions.stream().filter(a -> a instanceof DvmAction.ToClient(int c, var m) && c == 2)
                .map(a -> ((DvmAction.ToClient) a).message()).toList();
        // what banyan wait is told of: the last 30 to end as the DVM kept them; the first 20, whose
        // records it let go, as the agent saw them end (without their time)
        assertThat(toWaiter.getFirst()).isEqualTo(new ClientMessage.TasksAccepted(ids));
        ClientMessage.TaskUpdates states = (ClientMessage.TaskUpdates) toWaiter.get(1);
        assertThat(states.updates()).hasSize(50).allMatch(u -> u.state() == org.banyan.core.pilot.TaskState.DONE);
        assertThat(states.updates().subList(0, 20)).allMatch(u -> u.timeMicros() == 0);
        assertThat(states.updates().subList(20, 50)).allMatch(u -> u.timeMicros() > 0);
    }

    /** An MPI task with GPUs over two nodes: one context per node, each told that node's GPUs, by that node's names. */
    @Test
    void anMpiTaskWithGpusTellsTheRanksOnEachNodeTheirNodesGpus() throws Exception {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 2), new NodeResources("n1", 2, 2))),
                List.of("n0", "n1"), 0);
        agent.gpuNames().set(1, List.of("GPU-aa", "GPU-bb"));
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2), new Node("n1", 2)), new HeadSettings(0, 1000, 10_000),
                () -> 7, actions::add, DvmClock.SYSTEM, 10);
        List<org.banyan.core.head.HeadEvent> events = ready(d, d.submit(session(1), List.of(new TaskRequest("m", "./sim", List.of(),
                Map.of("A", "1"), "/tmp", "o", "e", null, List.of(), List.of(), new SlotRequest(4, 1, 1, null, false), 0, true, 0,
                false, List.of()))));
        org.banyan.core.job.JobDescription job = events.stream().filter(org.banyan.core.head.HeadEvent.Submit.class::isInstance)
                .map(e -> ((org.banyan.core.head.HeadEvent.Submit) e).job()).findFirst().orElseThrow();
        assertThat(job.apps()).extracting(a -> a.count() + " " + a.env().get("CUDA_VISIBLE_DEVICES") + " " + a.env().get("A"))
                .as("n1's daemon was given its GPUs under names").containsExactly("2 0,1 1", "2 GPU-aa,GPU-bb 1");
        org.banyan.core.job.RankMap map = org.banyan.core.job.RankMap.of(job);
        for (int rank = 0; rank < 4; rank++) {
            assertThat(map.nodeOf(rank)).as("context i's ranks are node i's").isEqualTo(map.appOf(rank));
        }
    }

    /**
     * A daemon's batch of ends makes one message per node for the starts they free cores for:
     * one per end was a message, a routing and a wake-up of the daemon for nearly every task.
     */
    @Test
    void aBatchOfEndsStartsTheNextTasksInOneMessagePerNode() throws Exception {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0), new NodeResources("n1", 2, 0))),
                List.of("n0", "n1"), 0);
        agent.gpuNames().set(1, List.of("GPU-aa", "GPU-bb"));
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2), new Node("n1", 2)), new HeadSettings(0, 1000, 10_000),
                () -> 1, actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            requests.add(new TaskRequest("task." + i, "/bin/true", List.of(), Map.of(), "/tmp", "o", "e", "/dev/null", List.of(),
                    List.of(), new SlotRequest(1, 1, 0, null, false), 0, false, 0, false, List.of()));
        }
        List<OverlayMessage.RunTasks> first = runTasks(d.submit(s, requests));
        assertThat(first).extracting(OverlayMessage.RunTasks::to).containsExactly(0, 1);
        List<OverlayMessage.RankExited> ends = new ArrayList<>();
        for (OverlayMessage.RunTasks r : first) {
            for (org.banyan.core.pilot.TaskSpec t : r.tasks()) {
                ends.add(new OverlayMessage.RankExited(-1, t.taskId(), 0, ""));
            }
        }
        List<OverlayMessage.RunTasks> next = runTasks(d.ended(ends));
        assertThat(next).as("four ends on two nodes").extracting(OverlayMessage.RunTasks::to).containsExactly(0, 1);
        assertThat(next).allSatisfy(r -> assertThat(r.tasks()).hasSize(2));
    }

    /**
     * A restartable MPI task whose node is lost: its old job is ended, the restart runs as a new
     * job elsewhere, and the old job's end, when it comes, is not taken for the new one's. It
     * was: the old end failed the task and left the new job's ranks running on cores the agent
     * thought free.
     */
    @Test
    void aRestartedMpiTaskIsNotEndedByItsOldJobsEnd(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) throws Exception {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0), new NodeResources("n1", 2, 0))),
                List.of("n0", "n1"), 0);
        int[] jobs = {0};
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2), new Node("n1", 2)), new HeadSettings(0, 1000, 10_000),
                () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        List<org.banyan.core.head.HeadEvent> started = ready(d, d.submit(s, List.of(new TaskRequest("m", "./sim", List.of(), Map.of(),
                sandbox.toString(), "o", "e", null, List.of(), List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, 0, true, List.of()))));
        assertThat(submitted(started)).extracting(j -> j.jobId() + " on " + j.nodes().getFirst().name() + ":" + j.nodes().getFirst().slots())
                .containsExactly("1 on n0:2");

        List<org.banyan.core.head.HeadEvent> lost = ready(d, d.nodeLost(0));
        assertThat(lost).contains(new org.banyan.core.head.HeadEvent.CancelJob(1, "task 1 lost one of its nodes; ending its other ranks"));
        assertThat(submitted(lost)).extracting(j -> j.jobId() + " on " + j.nodes().get(1).name() + ":" + j.nodes().get(1).slots())
                .containsExactly("2 on n1:2");

        assertThat(d.jobs().isTaskJob(1)).isFalse();
        assertThat(d.jobs().jobEnded(1, 1, "")).as("the old job's end is nobody's").isEmpty();
        assertThat(agent.running()).isEqualTo(1);
        d.jobs().jobEnded(2, 0, "");
        d.jobs().outputClosed(1);
        assertThat(agent.unfinished()).isZero();
        assertThat(s.updates).extracting(ClientMessage.TaskUpdate::state).endsWith(org.banyan.core.pilot.TaskState.AGENT_SCHEDULING,
                org.banyan.core.pilot.TaskState.AGENT_EXECUTING, org.banyan.core.pilot.TaskState.DONE);
    }

    /**
     * An MPI task over two nodes loses one: its ranks on the other run on until its job is ended
     * there, and their cores go to no other task before that. They went at once, and for the
     * ending's grace a core was given out twice (found by the random model of DvmCoreTest).
     */
    @Test
    void theCoresOfAJobLeftOnALostNodeWaitForItsEnd(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0), new NodeResources("n1", 2, 0))),
                List.of("n0", "n1"), 0);
        int[] jobs = {0};
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2), new Node("n1", 2)), new HeadSettings(0, 1000, 10_000),
                () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        assertThat(submitted(ready(d, d.submit(s, List.of(new TaskRequest("m", "./sim", List.of(), Map.of(), sandbox.toString(), "o",
                "e", null, List.of(), List.of(), new SlotRequest(4, 1, 0, null, false), 0, true, 0, false, List.of())))))).hasSize(1);
        assertThat(runTasks(d.submit(s, List.of(new TaskRequest("t", "/bin/true", List.of(), Map.of(), "/tmp", "o", "e", "/dev/null",
                List.of(), List.of(), new SlotRequest(1, 2, 0, null, false), 0, false, 0, false, List.of()))))).as("no core free").isEmpty();

        List<org.banyan.core.head.HeadEvent> lost = d.nodeLost(0);
        assertThat(lost).contains(new org.banyan.core.head.HeadEvent.CancelJob(1, "task 1 lost one of its nodes; ending its other ranks"));
        assertThat(runTasks(lost)).as("n1's cores still run the job's ranks").isEmpty();
        assertThat(runTasks(d.jobs().jobEnded(1, 143, ""))).as("now they are free").extracting(OverlayMessage.RunTasks::to)
                .containsExactly(1);
    }

    /**
     * An MPI task is DONE once its output files are closed, so that what a user reads then is
     * whole (the driver writes them off the loop); files that do not close in time (a FIFO
     * nobody reads, a hung file system) fail the task with why, and its cores are free again;
     * a DVM that stops ends its tasks at once.
     */
    @Test
    void anMpiTaskEndsOnceItsOutputFilesAreClosed(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0))), List.of("n0"), 0);
        int[] jobs = {0};
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2)), new HeadSettings(0, 1000, 10_000),
                () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        java.util.function.IntFunction<TaskRequest> mpi = i -> new TaskRequest("m" + i, "./sim", List.of(), Map.of(),
                sandbox.toString(), "o", "e", null, List.of(), List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, 0, true,
                List.of());
        ready(d, d.submit(s, List.of(mpi.apply(1), mpi.apply(2), mpi.apply(3))));
        actions.clear();

        assertThat(d.jobs().jobEnded(1, 0, "")).isEmpty();
        assertThat(actions).contains(new DvmAction.CloseTaskOutput(1),
                new DvmAction.Arm(new DvmEvent.TaskOutputLate(1, 1), TaskJobOutput.CLOSE_MILLIS));
        assertThat(agent.running()).as("not ended before its files are closed").isEqualTo(1);
        assertThat(submitted(ready(d, d.jobs().outputClosed(1)))).as("its cores go to the next").hasSize(1);
        assertThat(d.jobs().outputLate(1, 1)).as("its timer, after").isEmpty();
        assertThat(s.updates).filteredOn(u -> u.taskId() == 1).extracting(ClientMessage.TaskUpdate::state)
                .endsWith(org.banyan.core.pilot.TaskState.DONE);

        d.jobs().jobEnded(2, 0, "");
        assertThat(d.jobs().outputLate(2, 1)).as("another job's timer").isEmpty();
        assertThat(submitted(ready(d, d.jobs().outputLate(2, 2)))).hasSize(1);
        ClientMessage.TaskUpdate late = s.updates.stream().filter(u -> u.taskId() == 2).reduce((a, b) -> b).orElseThrow();
        assertThat(late.state()).isEqualTo(org.banyan.core.pilot.TaskState.FAILED);
        assertThat(late.detail()).contains("its output files were not written 30 s after it ended with status 0");
        assertThat(actions).as("its files left, their writer freed").contains(new DvmAction.AbandonTaskOutput(2))
                .doesNotContain(new DvmAction.AbandonTaskOutput(1));
        assertThat(d.jobs().outputClosed(2)).isEmpty();

        d.jobs().dvmStopping();
        d.jobs().jobEnded(3, 143, "ended as its DVM stopped (it was stopped by SIGTERM)");
        assertThat(agent.unfinished()).isZero();
    }

    /** An MPI task whose file cannot be made fails with why, as a task of one process does, and its job is ended. */
    @Test
    void anMpiTaskWhoseFileCannotBeMadeFailsWithWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0))), List.of("n0"), 0);
        int[] jobs = {0};
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2)), new HeadSettings(0, 1000, 10_000),
                () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        ready(d, d.submit(s, List.of(new TaskRequest("m", "./sim", List.of(), Map.of(), sandbox.toString(), "/no/dir/o", "e", null,
                List.of(), List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, 0, true, List.of()))));
        String why = "No such file or directory (cannot open its stdout /no/dir/o)";
        assertThat(d.jobs().outputFailed(1, why)).containsExactly(new org.banyan.core.head.HeadEvent.CancelJob(1, "task 1 canceled or timed out"));
        d.jobs().jobEnded(1, 143, "");
        d.jobs().outputClosed(1);
        ClientMessage.TaskUpdate last = s.updates.getLast();
        assertThat(last.state()).isEqualTo(org.banyan.core.pilot.TaskState.FAILED);
        assertThat(last.detail()).isEqualTo(why);
    }

    /**
     * An MPI task whose output files fall behind has its job stopped until they catch up; a job
     * so stopped that the DVM ends (canceled here) is continued after its end's SIGTERM goes out.
     */
    @Test
    void anMpiTaskWhoseFilesFallBehindWaitsForThem(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0))), List.of("n0"), 0);
        int[] jobs = {0};
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2)), new HeadSettings(0, 1000, 10_000),
                () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
        ready(d, d.submit(session(1), List.of(new TaskRequest("m", "./sim", List.of(), Map.of(), sandbox.toString(), "o", "e", null,
                List.of(), List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, 0, true, List.of()))));
        int stop = org.banyan.core.daemon.Signals.SIGSTOP;
        int cont = org.banyan.core.daemon.Signals.SIGCONT;
        assertThat(d.jobs().outputBacklog(1, true)).containsExactly(new org.banyan.core.head.HeadEvent.SignalJob(1, stop));
        assertThat(d.jobs().outputBacklog(1, true)).isEmpty();
        assertThat(actions).filteredOn(DvmAction.Log.class::isInstance).singleElement().asString()
                .contains("task 1 writes faster than its output files take it: its job 1 is stopped until they catch up, each time");
        assertThat(d.jobs().outputBacklog(1, false)).containsExactly(new org.banyan.core.head.HeadEvent.SignalJob(1, cont));
        assertThat(d.jobs().outputBacklog(1, false)).isEmpty();
        assertThat(d.jobs().outputBacklog(1, true)).containsExactly(new org.banyan.core.head.HeadEvent.SignalJob(1, stop));
        d.jobs().outputBacklog(1, false);
        assertThat(actions).as("said once").filteredOn(DvmAction.Log.class::isInstance).hasSize(1);

        d.jobs().outputBacklog(1, true);
        assertThat(d.cancel(List.of(1))).containsSubsequence(
                new org.banyan.core.head.HeadEvent.CancelJob(1, "task 1 canceled or timed out"),
                new org.banyan.core.head.HeadEvent.SignalJob(1, cont));
        assertThat(d.jobs().outputBacklog(7, true)).as("no such task's job").isEmpty();
    }

    /**
     * An MPI task's job waits for its sandbox and program (made and read off the loop, where a
     * hung mount stopped the whole DVM): nothing is submitted before; a cancel meanwhile ends
     * the task at once and frees its cores; the late answer submits nothing.
     */
    @Test
    void anMpiTaskHeldForItsSandboxEndsAtOnceWhenCanceled(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0))), List.of("n0"), 0);
        int[] jobs = {0};
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2)), new HeadSettings(0, 1000, 10_000),
                () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        TaskRequest mpi = new TaskRequest("m", "./sim", List.of(), Map.of("PATH", "/opt/bin"), sandbox.toString(), "o", "e", null,
                List.of(), List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, 0, false, List.of());
        assertThat(submitted(d.submit(s, List.of(mpi, mpi)))).as("held").isEmpty();
        assertThat(actions).contains(new DvmAction.PrepareTaskJob(1, sandbox.toString(), "./sim", "/opt/bin"))
                .noneMatch(DvmAction.OpenTaskOutput.class::isInstance);

        assertThat(actions).contains(new DvmAction.Arm(new DvmEvent.TaskJobSlow(1), TaskJobStarts.SLOW_MILLIS));
        d.jobs().slow(1);
        assertThat(actions).filteredOn(DvmAction.Log.class::isInstance).singleElement().asString().contains(
                "task 1 waits for its sandbox " + sandbox + " and its program ./sim: their file system has not answered for 10 s");

        List<org.banyan.core.head.HeadEvent> canceled = d.cancel(List.of(1));
        assertThat(canceled).as("no job of it to end").noneMatch(org.banyan.core.head.HeadEvent.CancelJob.class::isInstance);
        assertThat(s.updates).filteredOn(u -> u.taskId() == 1).extracting(ClientMessage.TaskUpdate::state)
                .endsWith(org.banyan.core.pilot.TaskState.CANCELED);
        assertThat(actions).as("its cores go to the next, held in turn").contains(
                new DvmAction.PrepareTaskJob(2, sandbox.toString(), "./sim", "/opt/bin"));
        assertThat(d.jobs().prepared(1, org.banyan.core.job.WireUp.BOTH)).as("the late answer").isEmpty();
        d.jobs().slow(1);
        assertThat(actions).as("said once, while held").filteredOn(DvmAction.Log.class::isInstance).hasSize(1);
        assertThat(d.jobs().isTaskJob(1)).isFalse();

        assertThat(submitted(d.jobs().prepared(2, org.banyan.core.job.WireUp.PMIX))).extracting(j -> j.jobId()).containsExactly(2);
        assertThat(actions).contains(new DvmAction.OpenTaskOutput(2, sandbox.toString(), "o", "e"));
    }

    /** A sandbox that cannot be made fails the task with why; one still held when its time is up fails as timed out. */
    @Test
    void anMpiTaskWhoseSandboxCannotBeMadeOrIsLateFailsWithWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 4, 0))), List.of("n0"), 0);
        int[] jobs = {0};
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 4)), new HeadSettings(0, 1000, 10_000),
                () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        java.util.function.IntFunction<TaskRequest> mpi = timeout -> new TaskRequest("m", "./sim", List.of(), Map.of(),
                sandbox.toString(), "o", "e", null, List.of(), List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, timeout,
                false, List.of());
        d.submit(s, List.of(mpi.apply(0)));
        d.submit(s, List.of(mpi.apply(5_000)));
        String why = "./sim: cannot make its directory /x (Permission denied)";
        assertThat(d.jobs().unprepared(1, why)).noneMatch(org.banyan.core.head.HeadEvent.Submit.class::isInstance);
        assertThat(d.timedOut(2)).noneMatch(org.banyan.core.head.HeadEvent.Submit.class::isInstance);
        assertThat(d.jobs().unprepared(1, why)).as("said again").isEmpty();
        assertThat(agent.unfinished()).isZero();
        Map<Integer, ClientMessage.TaskUpdate> last = new java.util.HashMap<>();
        s.updates.forEach(u -> last.put(u.taskId(), u));
        assertThat(last.get(1).state()).isEqualTo(org.banyan.core.pilot.TaskState.FAILED);
        assertThat(last.get(1).detail()).isEqualTo(why);
        assertThat(last.get(1).exitCode()).as("as a task of one process: nothing was signaled").isEqualTo(127);
        assertThat(last.get(2).state()).isEqualTo(org.banyan.core.pilot.TaskState.FAILED);
        assertThat(last.get(2).detail()).isEqualTo("timed out after 5.0 s");
    }

    /** A job whose sandbox is made once its DVM stops is not submitted: its task ends, never started. */
    @Test
    void anMpiTaskReadyAfterItsDvmStoppedNeverStarts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path sandbox) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0))), List.of("n0"), 0);
        TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2)), new HeadSettings(0, 1000, 10_000),
                () -> 1, actions::add, DvmClock.SYSTEM, 10);
        Client s = session(1);
        d.submit(s, List.of(new TaskRequest("m", "./sim", List.of(), Map.of(), sandbox.toString(), "o", "e", "in", List.of(),
                List.of(), new SlotRequest(2, 1, 0, null, false), 0, true, 0, false, List.of())));
        d.jobs().dvmStopping();
        assertThat(submitted(d.jobs().prepared(1, org.banyan.core.job.WireUp.BOTH))).isEmpty();
        assertThat(agent.unfinished()).isZero();
        assertThat(s.updates.getLast().state()).isEqualTo(org.banyan.core.pilot.TaskState.FAILED);
        assertThat(s.updates.getLast().detail()).isEqualTo("never started: its DVM stopped");
    }

    /** {@code events}, and the submits of the jobs whose sandbox the driver was asked for since, made as it would. */
    private List<org.banyan.core.head.HeadEvent> ready(TaskDispatch d, List<org.banyan.core.head.HeadEvent> events) {
        List<org.banyan.core.head.HeadEvent> all = new ArrayList<>(events);
        for (int i = 0; i < actions.size(); i++) {
            if (actions.get(i) instanceof DvmAction.PrepareTaskJob p && answered.add(p.jobId())) {
                all.addAll(d.jobs().prepared(p.jobId(), org.banyan.core.job.WireUp.BOTH));
            }
        }
        return all;
    }

    private static List<org.banyan.core.job.JobDescription> submitted(List<org.banyan.core.head.HeadEvent> events) {
        return events.stream().filter(org.banyan.core.head.HeadEvent.Submit.class::isInstance)
                .map(e -> ((org.banyan.core.head.HeadEvent.Submit) e).job()).toList();
    }

    private static List<OverlayMessage.RunTasks> runTasks(List<org.banyan.core.head.HeadEvent> events) {
        return events.stream().filter(e -> e instanceof org.banyan.core.head.HeadEvent.Route(OverlayMessage.RunTasks r))
                .map(e -> (OverlayMessage.RunTasks) ((org.banyan.core.head.HeadEvent.Route) e).message()).toList();
    }

    /** Submits {@code n} one-core tasks and ends each as it starts; returns their ids. */
    private static List<Integer> run(TaskDispatch d, Client s, int n) {
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(new TaskRequest("task." + i, "/bin/true", List.of(), Map.of(), "/tmp", "o", "e", "/dev/null", List.of(), List.of(),
                    new SlotRequest(1, 1, 0, null, false), 0, false, 0, false, List.of()));
        }
        d.submit(s, requests);
        List<Integer> ids = new ArrayList<>(s.tasks);
        ids.sort(null);
        for (int id : ids) { // in order: two cores, so each end lets the next start
            d.ended(List.of(new OverlayMessage.RankExited(-1, id, 0, "")));
        }
        s.updates.clear();
        return ids;
    }

    private TaskDispatch dispatch(int keep) {
        TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0))), List.of("n0"), 0);
        int[] jobs = {0};
        return new TaskDispatch(agent, List.of(new Node("n0", 2)), new HeadSettings(0, 1000, 10_000), () -> ++jobs[0],
                actions::add, DvmClock.SYSTEM, keep);
    }

    /** A client whose messages go to {@link #actions}. */
    private Client session(int id) {
        return new Client(id, actions::add);
    }
}
