package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * The stdin file of a task that runs as a job goes to its rank 0, as mpirun gives its stdin to
 * rank 0: it was refused ("for executable tasks", "for a task of one rank").
 */
class TaskJobInputTest {
    private final List<DvmAction> actions = new ArrayList<>();
    private final TaskAgent agent = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("n0", 2, 0),
            new NodeResources("n1", 2, 0))), List.of("n0", "n1"), 0);
    private final int[] jobs = {0};
    private final TaskDispatch d = new TaskDispatch(agent, List.of(new Node("n0", 2), new Node("n1", 2)),
            new HeadSettings(0, 1000, 10_000), () -> ++jobs[0], actions::add, DvmClock.SYSTEM, 10);
    private final Client s = new Client(1, actions::add);
    private final java.util.Set<Integer> answered = new java.util.HashSet<>();

    private static TaskRequest task(String stdin, boolean restartable) {
        return new TaskRequest("m", "./sim", List.of(), Map.of(), "/sandbox", "o", "e", stdin, List.of(), List.of(),
                new SlotRequest(2, 1, 0, null, false), 0, true, 0, restartable, List.of());
    }

    @Test
    void rankZeroReadsTheFileWithinItsCreditUntilTheJobEnds() {
        JobDescription job = submitted(d.submit(s, List.of(task("in.txt", false)))).getFirst();
        assertThat(job.stdinRank()).isZero();
        assertThat(job.readsStdin(1)).isFalse();
        assertThat(actions).as("nothing is read before the head core says where rank 0 is")
                .noneMatch(DvmAction.OpenTaskInput.class::isInstance);

        d.jobs().forJob(1, new HeadAction.ForwardStdin(List.of(0), 0));
        d.jobs().forJob(1, new HeadAction.StdinCredit(4096));
        assertThat(actions).containsSubsequence(new DvmAction.OpenTaskInput(1, "/sandbox", "in.txt"),
                new DvmAction.TaskInputCredit(1, 4096));

        actions.clear();
        byte[] chunk = "line\n".getBytes(StandardCharsets.US_ASCII);
        d.jobs().input(1, chunk);
        d.jobs().input(1, new byte[0]);
        assertThat(actions).hasSize(2).allMatch(a -> a instanceof DvmAction.ToDaemon(int daemon, OverlayMessage.StdinData data)
                && daemon == 0 && data.jobId() == 1 && data.rank() == 0);
        assertThat(((OverlayMessage.StdinData) ((DvmAction.ToDaemon) actions.getFirst()).message()).data()).isEqualTo(chunk);

        actions.clear();
        d.jobs().jobEnded(1, 0, "");
        assertThat(actions).contains(new DvmAction.CloseTaskInput(1));
        actions.clear();
        d.jobs().input(1, chunk);
        d.jobs().forJob(1, new HeadAction.StdinCredit(8192));
        assertThat(actions).as("a chunk or credit after the job's end goes nowhere").isEmpty();
    }

    @Test
    void aTaskWithoutAStdinFileReadsNothing() {
        JobDescription job = submitted(d.submit(s, List.of(task(null, false)))).getFirst();
        assertThat(job.stdinRank()).isEqualTo(-1);
        d.jobs().forJob(1, new HeadAction.ForwardStdin(List.of(0), 0));
        d.jobs().forJob(1, new HeadAction.StdinCredit(4096));
        assertThat(actions).noneMatch(a -> a instanceof DvmAction.OpenTaskInput || a instanceof DvmAction.TaskInputCredit);
    }

    @Test
    void aFileThatCannotBeReadFailsTheTaskWithWhyAndEndsItsJob() {
        submitted(d.submit(s, List.of(task("missing", false))));
        d.jobs().forJob(1, new HeadAction.ForwardStdin(List.of(0), 0));
        String why = "No such file or directory (cannot open its stdin /sandbox/missing)";
        assertThat(d.jobs().inputFailed(1, why)).contains(new HeadEvent.CancelJob(1, "task 1 canceled or timed out"));
        d.jobs().jobEnded(1, 143, "");
        assertThat(actions).contains(new DvmAction.CloseTaskInput(1));
        d.jobs().outputClosed(1);
        ClientMessage.TaskUpdate last = s.updates.getLast();
        assertThat(last.state()).isEqualTo(TaskState.FAILED);
        assertThat(last.detail()).isEqualTo(why);
        assertThat(d.jobs().inputFailed(1, why)).as("said again, of a job gone").isEmpty();
    }

    /** A task restarted elsewhere reads its file again from the start in its new job; what its old job's reader hands back is dropped. */
    @Test
    void aRestartedTaskReadsItsFileAgainInItsNewJob() {
        submitted(d.submit(s, List.of(task("in.txt", true))));
        d.jobs().forJob(1, new HeadAction.ForwardStdin(List.of(0), 0));
        List<HeadEvent> lost = d.nodeLost(0);
        assertThat(submitted(lost)).extracting(JobDescription::jobId, JobDescription::stdinRank).containsExactly(
                org.assertj.core.groups.Tuple.tuple(2, 0));
        assertThat(actions).contains(new DvmAction.CloseTaskInput(1));
        actions.clear();
        d.jobs().input(1, new byte[] {1});
        assertThat(actions).isEmpty();
        d.jobs().forJob(2, new HeadAction.ForwardStdin(List.of(1), 0));
        assertThat(actions).containsExactly(new DvmAction.OpenTaskInput(2, "/sandbox", "in.txt"));
    }

    /** The jobs submitted in {@code events}, and those whose sandbox the driver was asked for since, made as it would. */
    private List<JobDescription> submitted(List<HeadEvent> events) {
        List<HeadEvent> all = new ArrayList<>(events);
        for (DvmAction a : List.copyOf(actions)) {
            if (a instanceof DvmAction.PrepareTaskJob p && answered.add(p.jobId())) {
                all.addAll(d.jobs().prepared(p.jobId(), org.banyan.core.job.WireUp.BOTH));
            }
        }
        return all.stream().filter(HeadEvent.Submit.class::isInstance).map(e -> ((HeadEvent.Submit) e).job()).toList();
    }
}
