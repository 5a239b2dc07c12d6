package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.NamedEnv;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Staging;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What RADICAL-Pilot users reach for, on a real DVM: the variables RP's tasks read, arguments
 * expanded as RP's launch script expands them, transfer staging, pilot-level staging, the phase
 * that failed named, callback exceptions kept on the task and pilot, and re-attaching to tasks a
 * program left running.
 */
class RadicalPilotHabitsTest {
    @TempDir
    Path dir;

    Path uri;

    @BeforeEach
    void start() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--dvm", uri.toString(), "--host", "localhost:4"); // --dvm, as the other commands name it
        assertThat(r.exit()).as(r.stderr()).isZero();
    }

    @AfterEach
    void stop() throws Exception {
        Banyan.run("dvm", "stop", "--dvm", uri.toString());
        Banyan.assertNoProcessesWith(uri.toString());
    }

    private static Map<String, String> variables(String dump) {
        Map<String, String> v = new java.util.TreeMap<>();
        for (String line : dump.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                v.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return v;
    }

    @Test
    void tasksSeeWhatRpTasksSeeAndFailuresNameTheirPhase() throws Exception {
        Files.writeString(dir.resolve("shared.dat"), "for all\n");
        Files.writeString(dir.resolve("input.dat"), "mine\n");
        try (Session session = new Session(dir.resolve("session"), dir)) {
            Pilot pilot = new PilotManager(session).submit(PilotDescription.dvm(uri));
            RuntimeException boom = new IllegalStateException("the user's callback broke");
            pilot.onState((p, s) -> {
                if (s == PilotState.PMGR_ACTIVE) {
                    throw boom;
                }
            });
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            pilot.stageIn(new Staging("shared.dat", "pilot:///", Staging.Action.TRANSFER));
            pilot.prepareEnv("tools", NamedEnv.shell("export TOOL=hammer"));
            pilot.prepareEnv("py", NamedEnv.virtualenv());
            assertThatThrownBy(() -> pilot.prepareEnv("bad", NamedEnv.virtualenv("/nonexistent/python3", List.of())))
                    .isInstanceOf(java.io.IOException.class).hasMessageContaining("making the virtual environment bad");
            assertThat(pilot.sandbox().resolve("shared.dat")).hasContent("for all");
            TaskManager tmgr = new TaskManager(session);
            tmgr.registerCallback((t, s) -> {
                if (t.uid().equals("env") && s == TaskState.DONE) {
                    throw new IllegalArgumentException("callback of env");
                }
            });
            tmgr.addPilots(pilot);
            List<Task> tasks = tmgr.submit(List.of(
                    new TaskDescription().uid("env").name("looker").ranks(2).executable("sh")
                            .arguments("-c", "env | grep -E '^(RP|BANYAN)_' | sort; cat \"$RP_PILOT_SANDBOX/shared.dat\" input.dat")
                            .inputStaging(new Staging("input.dat", "input.dat", Staging.Action.TRANSFER)),
                    new TaskDescription().uid("shell").shell(true).executable("echo")
                            .arguments("$RP_TASK_ID", "'$RP_TASK_ID'", "two words", "a\"quote"),
                    new TaskDescription().uid("literal").executable("echo").arguments("$RP_TASK_ID"),
                    new TaskDescription().uid("pre").executable("true").preExec("echo setting up", "test -d /nonexistent"),
                    new TaskDescription().uid("post").executable("true").postExec("exit 4"),
                    new TaskDescription().uid("tools").namedEnv("tools").executable("sh").arguments("-c", "echo $TOOL"),
                    new TaskDescription().uid("py").namedEnv("py").executable("sh").arguments("-c", "echo $VIRTUAL_ENV; command -v python3"),
                    new TaskDescription().uid("nope").namedEnv("nope").executable("true"),
                    new TaskDescription().uid("missing").executable("true")
                            .inputStaging(new Staging("nothere.dat", "nothere.dat", Staging.Action.TRANSFER))));
            tmgr.waitTasks(tasks);
            Task env = tasks.get(0);
            assertThat(env.state()).as(env.detail()).isEqualTo(TaskState.DONE);
            String out = env.stdout();
            assertThat(out).contains("for all\nmine\n");
            Map<String, String> v = variables(out);
            Path box = session.dir().resolve("env");
            assertThat(v).containsEntry("RP_TASK_ID", "env").containsEntry("BANYAN_TASK_UID", "env")
                    .containsEntry("RP_TASK_NAME", "looker").containsEntry("BANYAN_TASK_NAME", "looker")
                    .containsEntry("RP_PILOT_ID", pilot.uid()).containsEntry("BANYAN_PILOT_ID", pilot.uid())
                    .containsEntry("RP_SESSION_ID", "session").containsEntry("RP_SESSION_SANDBOX", session.dir().toString())
                    .containsEntry("RP_PILOT_SANDBOX", pilot.sandbox().toString())
                    .containsEntry("RP_TASK_SANDBOX", box.toString()).containsEntry("BANYAN_TASK_SANDBOX", box.toString())
                    .containsEntry("RP_RANKS", "2").containsEntry("RP_CORES_PER_RANK", "1").containsEntry("RP_GPUS_PER_RANK", "0")
                    .containsKey("RP_RANK");
            assertThat(out.lines().filter(l -> l.startsWith("RP_RANK=")).sorted().toList())
                    .containsExactly("RP_RANK=0", "RP_RANK=1");
            assertThat(env.callbackFailure()).hasMessage("callback of env");
            assertThat(pilot.callbackFailure()).isSameAs(boom);

            assertThat(tasks.get(1).stdout()).isEqualTo("shell $RP_TASK_ID two words a\"quote\n");
            assertThat(tasks.get(2).stdout()).as("no shell: as given").isEqualTo("$RP_TASK_ID\n");
            Task pre = tasks.get(3);
            assertThat(pre.state()).isEqualTo(TaskState.FAILED);
            assertThat(pre.detail()).endsWith("pre_exec failed (exit 1): test -d /nonexistent");
            Task post = tasks.get(4);
            assertThat(post.state()).as("the executable's status is the task's").isEqualTo(TaskState.DONE);
            assertThat(post.stderr()).isEqualTo("post_exec failed (exit 4): exit 4\n");
            assertThat(tasks.get(5).stdout()).isEqualTo("hammer\n");
            Path venv = pilot.sandbox().resolve("env/py");
            assertThat(tasks.get(6).stdout()).as(tasks.get(6).detail()).isEqualTo(venv + "\n" + venv + "/bin/python3\n");
            assertThat(tasks.get(7).state()).isEqualTo(TaskState.FAILED);
            assertThat(tasks.get(7).detail()).isEqualTo("named_env 'nope' is not prepared on " + pilot.uid() + " (Pilot.prepareEnv)");
            Task missing = tasks.get(8);
            assertThat(missing.state()).isEqualTo(TaskState.FAILED);
            assertThat(missing.detail()).startsWith("input staging: cannot transfer (copy on the shared file system) ")
                    .contains("No such file or directory");
        }
        assertThat(Files.readString(dir.resolve("session/banyan.prof"))).contains(",callback_failed,")
                .contains("java.lang.IllegalArgumentException: callback of env");
    }

    @Test
    void aLaterProgramReattachesToTasksLeftRunning() throws Exception {
        List<Integer> ids;
        Path flag = dir.resolve("go");
        try (Session first = new Session(dir.resolve("first"), dir)) {
            Pilot pilot = new PilotManager(first).submit(PilotDescription.dvm(uri));
            TaskManager tmgr = new TaskManager(first);
            tmgr.detach();
            tmgr.addPilots(pilot);
            List<Task> left = tmgr.submit(List.of(
                    new TaskDescription().executable("sh").arguments("-c", "while [ ! -e " + flag + " ]; do sleep 0.1; done"),
                    new TaskDescription().executable("sh").arguments("-c", "while [ ! -e " + flag + " ]; do sleep 0.1; done; exit 3"),
                    new TaskDescription().executable("true")));
            for (Task t : left) {
                long t0 = System.nanoTime();
                t.waitState(java.util.EnumSet.range(TaskState.AGENT_EXECUTING, TaskState.CANCELED), 30_000);
                assertThat(System.nanoTime() - t0).as(t.toString()).isLessThan(20_000_000_000L);
            }
            ids = left.stream().map(Task::dvmId).toList();
        }
        try (Session second = new Session(dir.resolve("second"), dir)) {
            Pilot pilot = new PilotManager(second).submit(PilotDescription.dvm(uri));
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).isEqualTo(PilotState.PMGR_ACTIVE);
            TaskManager tmgr = new TaskManager(second);
            tmgr.addPilots(pilot);
            List<Integer> asked = new java.util.ArrayList<>(ids);
            asked.add(999_999);
            List<Task> back = tmgr.attach(pilot, asked);
            assertThat(back).hasSize(4);
            assertThat(back.get(0).state()).isEqualTo(TaskState.AGENT_EXECUTING);
            Files.writeString(flag, "");
            tmgr.waitTasks(back);
            assertThat(back.get(0).state()).isEqualTo(TaskState.DONE);
            assertThat(back.get(1).state()).isEqualTo(TaskState.FAILED);
            assertThat(back.get(1).exitCode()).isEqualTo(3);
            assertThat(back.get(2).state()).as("over before the attach: comes back final").isEqualTo(TaskState.DONE);
            assertThat(back.get(3).state()).isEqualTo(TaskState.FAILED);
            assertThat(back.get(3).detail()).contains("has no task 999999");
            assertThat(back.get(0).dvmId()).isEqualTo(ids.get(0));
            assertThat(back.get(0).stdout()).isNull();
        }
    }

    /** The same habits in a task file: RP's capitalised action names, "transfer", and "shell". */
    @Test
    void aTaskFileTakesRpsSpellings() throws Exception {
        Files.writeString(dir.resolve("in.dat"), "data\n");
        Files.writeString(dir.resolve("t.jsonl"), """
                {"uid": "a", "executable": "cat", "arguments": ["in.dat"], "input_staging": [{"source": "in.dat", "action": "Transfer"}]}
                {"uid": "b", "executable": "echo", "arguments": ["$RP_TASK_ID"], "shell": true}
                {"uid": "c", "executable": "true", "input_staging": [{"source": "in.dat", "action": "teleport"}]}
                """);
        Banyan.Result bad = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--tasks", "t.jsonl"));
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.stderr()).contains("action 'teleport' is not copy, link, move or transfer");
        Files.writeString(dir.resolve("t.jsonl"), Files.readString(dir.resolve("t.jsonl")).lines().limit(2)
                .collect(java.util.stream.Collectors.joining("\n")) + "\n");
        Banyan.Result r = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "s", "--quiet",
                "--tasks", "t.jsonl"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(dir.resolve("s/a/a.out")).hasContent("data");
        assertThat(dir.resolve("s/b/b.out")).hasContent("b");
    }
}
