package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Staging;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java Pilot API with a real local pilot: late binding, staging, failures, cancel, and nothing left at close. */
class PilotApiTest {
    @TempDir
    Path dir;

    @Test
    void tasksBindLateRunAndACanceledOneLeavesNothing() throws Exception {
        String marker = Banyan.marker();
        Files.writeString(dir.resolve("input.txt"), "42\n");
        List<TaskState> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Pilot pilot;
        // relative staging paths start in the session's base (here not this JVM's directory)
        try (Session session = new Session(dir.resolve("session"), dir)) {
            TaskManager tmgr = new TaskManager(session);
            tmgr.registerCallback((t, s) -> {
                if (t.uid().equals("task.000000")) {
                    seen.add(s);
                }
            });
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                boolean relative = i % 2 == 0;
                work.add(new TaskDescription().executable("sh").arguments("-c", "cat input.txt > copy.txt")
                        .inputStaging(new Staging(relative ? "input.txt" : dir.resolve("input.txt").toString(), "input.txt",
                                Staging.Action.LINK))
                        .outputStaging(new Staging("copy.txt", relative ? "copy." + i : dir.resolve("copy." + i).toString(),
                                Staging.Action.MOVE)));
            }
            work.add(new TaskDescription().uid("fails").executable("sh").arguments("-c", "echo nope >&2; exit 4"));
            List<Task> tasks = tmgr.submit(work);
            assertThat(tasks.getFirst().state()).as("no pilot yet: the tasks wait").isEqualTo(TaskState.TMGR_SCHEDULING_PENDING);
            PilotManager pmgr = new PilotManager(session);
            pilot = pmgr.submit(PilotDescription.local(2));
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            tmgr.waitTasks(tasks);
            for (int i = 0; i < 10; i++) {
                assertThat(tasks.get(i).state()).as(tasks.get(i).toString()).isEqualTo(TaskState.DONE);
                assertThat(dir.resolve("copy." + i)).hasContent("42");
            }
            Task failed = tasks.get(10);
            assertThat(failed.state()).isEqualTo(TaskState.FAILED);
            assertThat(failed.exitCode()).isEqualTo(4);
            assertThat(failed.detail()).isEqualTo("nope");
            assertThat(failed.stderr()).isEqualTo("nope\n");
            assertThat(failed.stdout()).isEmpty();
            assertThat(seen).containsExactly(TaskState.TMGR_SCHEDULING_PENDING, TaskState.TMGR_SCHEDULING,
                    TaskState.TMGR_STAGING_INPUT, TaskState.AGENT_STAGING_INPUT_PENDING, TaskState.AGENT_SCHEDULING,
                    TaskState.AGENT_EXECUTING, TaskState.AGENT_STAGING_OUTPUT, TaskState.TMGR_STAGING_OUTPUT, TaskState.DONE);
            assertThat(tasks.getFirst().times()).containsKeys(TaskState.values()[0], TaskState.AGENT_SCHEDULING_PENDING,
                    TaskState.TMGR_STAGING_OUTPUT_PENDING);

            Task echo = tmgr.submit(new TaskDescription().executable("sh").arguments("-c", "sleep 1; echo said")).getFirst();
            assertThat(echo.stdout()).as("not final yet").isNull();
            assertThat(echo.waitState(Set.of(TaskState.AGENT_EXECUTING), 30_000)).as("RADICAL-Pilot's task.wait(state)")
                    .isEqualTo(TaskState.AGENT_EXECUTING);
            assertThat(echo.waitState()).isEqualTo(TaskState.DONE);
            assertThat(echo.stdout()).isEqualTo("said\n");

            List<Task> sleepers = tmgr.submit(new TaskDescription().executable("sleep").arguments(marker));
            Banyan.awaitSleeps(marker, 1);
            tmgr.cancel(sleepers);
            assertThat(tmgr.waitTasks(sleepers, Set.of(TaskState.CANCELED), 30_000)).containsExactly(TaskState.CANCELED);
            Banyan.assertNoProcessesWith(marker);
            Task one = tmgr.submit(new TaskDescription().executable("sleep").arguments(marker)).getFirst();
            Banyan.awaitSleeps(marker, 1);
            one.cancel(); // task.cancel(), as RADICAL-Pilot's
            assertThat(one.waitState(Set.of(TaskState.CANCELED), 30_000)).isEqualTo(TaskState.CANCELED);
            Banyan.assertNoProcessesWith(marker);
            tmgr.submit(new TaskDescription().executable("sleep").arguments(marker));
            Banyan.awaitSleeps(marker, 1);
        }
        assertThat(pilot.state()).isEqualTo(PilotState.CANCELED);
        Banyan.assertNoProcessesWith(marker);
        Banyan.assertNoProcessesWith("DvmMain");
        assertThat(Files.readString(dir.resolve("session/banyan.prof")))
                .as("the pilot's DVM ran its warm-up (1,500 tasks on its one host) before it became active")
                .containsPattern(",pilot\\.0000,PMGR_ACTIVE,cores=2 warm_up=1500 tasks in [0-9]+ ms\n");
    }

    /**
     * With a window of 20, the manager holds the rest of a bag itself: the pilot never has more
     * than 20 unfinished tasks (counted from the profile), an urgent task submitted after the
     * bag goes before most of it, tasks canceled while they wait here never run, and when the
     * only pilot ends, what it never took fails instead of waiting for ever.
     */
    @Test
    void aWindowKeepsTheBagHereInPriorityOrder() throws Exception {
        String marker = Banyan.marker();
        Path sessionDir = dir.resolve("window");
        List<Task> bag;
        List<Task> dropped;
        try (Session session = new Session(sessionDir)) {
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(2));
            TaskManager tmgr = new TaskManager(session).window(20);
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                work.add(new TaskDescription().executable("true"));
            }
            bag = tmgr.submit(work);
            Task urgent = tmgr.submit(new TaskDescription().uid("urgent").executable("true").priority(10)).getFirst();
            dropped = bag.subList(280, 300);
            tmgr.cancel(dropped);
            List<Task> all = new ArrayList<>(bag);
            all.add(urgent);
            tmgr.waitTasks(all);
            for (Task t : bag.subList(0, 280)) {
                assertThat(t.state()).as(t.toString()).isEqualTo(TaskState.DONE);
            }
            assertThat(urgent.state()).isEqualTo(TaskState.DONE);
            assertThat(dropped).allSatisfy(t -> assertThat(t.state()).isEqualTo(TaskState.CANCELED));

            List<Task> sleepers = tmgr.submit(java.util.stream.IntStream.range(0, 30)
                    .mapToObj(i -> new TaskDescription().executable("sleep").arguments(marker)).toList());
            Banyan.awaitSleeps(marker, 2);
            pmgr.cancel(pilot);
            assertThat(tmgr.waitTasks(sleepers, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 60_000))
                    .as("nothing waits for a pilot that is gone").allSatisfy(s -> assertThat(s.isFinal()).isTrue());
            assertThat(sleepers.getLast().detail()).isEqualTo("no pilot left to run it");
            // and what comes after the last pilot is gone fails at once, saying so (it used to wait for ever)
            List<Task> late = tmgr.submit(new TaskDescription().executable("/bin/true"),
                    new TaskDescription().function((org.banyan.pilot.SerializableCallable<Integer>) () -> 42));
            assertThat(tmgr.waitTasks(late, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 10_000))
                    .containsOnly(TaskState.FAILED);
            assertThat(late).allSatisfy(t -> assertThat(t.detail()).isEqualTo("no pilot left to run it"));
        }
        List<String> lines = Files.readAllLines(sessionDir.resolve("banyan.prof"));
        // Sent (AGENT_STAGING_INPUT_PENDING) and ended at the pilot (its agent's last word: the
        // output staging that follows is this manager's), in time order: at most 20 between.
        List<long[]> events = new ArrayList<>();
        java.util.Map<String, Long> started = new java.util.HashMap<>();
        Set<String> ended = new java.util.HashSet<>();
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",", -1);
            long micros = Math.round(Double.parseDouble(f[0]) * 1e6);
            if (f[1].equals("state") && f[5].equals("AGENT_STAGING_INPUT_PENDING")) {
                events.add(new long[] {micros, 1});
            } else if (f[1].equals("state") && !f[4].startsWith("pilot.") && Set.of("AGENT_STAGING_OUTPUT", "DONE", "FAILED").contains(f[5])
                    && !f[6].equals("no pilot left to run it") && ended.add(f[4])) {
                events.add(new long[] {micros, -1});
            } else if (f[1].equals("exec_start")) {
                started.put(f[4], micros);
            }
        }
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int inFlight = 0;
        int most = 0;
        for (long[] e : events) {
            inFlight += (int) e[1];
            most = Math.max(most, inFlight);
        }
        assertThat(most).as("unfinished tasks the pilot held at once").isBetween(1, 20);
        long before = bag.stream().filter(t -> started.getOrDefault(t.uid(), Long.MAX_VALUE) < started.get("urgent")).count();
        assertThat(before).as("bag tasks started before the urgent one").isLessThan(100);
        assertThat(dropped).allSatisfy(t -> assertThat(started).doesNotContainKey(t.uid()));
        Banyan.assertNoProcessesWith(marker);
        Banyan.assertNoProcessesWith("DvmMain");
    }

    /**
     * Two pilots share a bag, a window at a time each; when one is canceled halfway, its
     * restartable tasks and everything still waiting in the manager run on the other.
     */
    @Test
    void twoPilotsShareABagAndTheSurvivorTakesTheRest() throws Exception {
        Path sessionDir = dir.resolve("two");
        List<Task> bag;
        try (Session session = new Session(sessionDir)) {
            PilotManager pmgr = new PilotManager(session);
            Pilot a = pmgr.submit(PilotDescription.local(2));
            Pilot b = pmgr.submit(PilotDescription.local(2));
            TaskManager tmgr = new TaskManager(session).window(8);
            tmgr.addPilots(a, b);
            for (Pilot p : List.of(a, b)) {
                assertThat(p.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(p.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            }
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                work.add(new TaskDescription().executable("sleep").arguments("0.01").restartable(true));
            }
            bag = tmgr.submit(work);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (bag.stream().filter(t -> t.state() == TaskState.DONE).count() < 100 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            a.cancel(); // pilot.cancel(), as RADICAL-Pilot's (pmgr.cancel(a) elsewhere)
            assertThat(tmgr.waitTasks(bag, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 120_000))
                    .as("every task done, on whichever pilot").containsOnly(TaskState.DONE);
            assertThat(bag.stream().filter(t -> t.pilot() == b).count()).as("tasks b ran").isGreaterThan(150);
        }
        String profile = Files.readString(sessionDir.resolve("banyan.prof"));
        for (String pilot : List.of("pilot.0000", "pilot.0001")) {
            assertThat(profile.lines().filter(l -> l.endsWith(",TMGR_SCHEDULING," + pilot)).count())
                    .as("tasks sent to %s", pilot).isGreaterThan(20);
        }
        Banyan.assertNoProcessesWith("DvmMain");
    }

    /**
     * A task canceled while its batch is on its way to the pilot (from a callback on
     * AGENT_STAGING_INPUT_PENDING, before the batch leaves) is canceled once the pilot has taken
     * it: it ends CANCELED and leaves nothing running.
     */
    @Test
    void aCancelWhileTheBatchIsOnItsWayIsNotLost() throws Exception {
        String marker = Banyan.marker();
        try (Session session = new Session(dir.resolve("cancel"))) {
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(2));
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            tmgr.registerCallback((t, s) -> {
                if (s == TaskState.AGENT_STAGING_INPUT_PENDING) {
                    tmgr.cancel(List.of(t));
                }
            });
            List<Task> tasks = tmgr.submit(java.util.stream.IntStream.range(0, 6)
                    .mapToObj(i -> new TaskDescription().executable("sleep").arguments(marker)).toList());
            assertThat(tmgr.waitTasks(tasks, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 30_000))
                    .containsOnly(TaskState.CANCELED);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!Banyan.processesWith(marker).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Banyan.assertNoProcessesWith(marker);
        }
        Banyan.assertNoProcessesWith("DvmMain");
    }
    /**
     * A large submit to an active pilot sends its first tasks before it has made the rest: the
     * first batch is small, so the pilot starts while the client is still busy (a batch of 4,096
     * used to hold the first task back by about 40 ms). Read from the profile's line order.
     */
    @Test
    void theFirstTasksOfALargeSubmitLeaveBeforeTheRestAreMade() throws Exception {
        Path sessionDir = dir.resolve("first");
        try (Session session = new Session(sessionDir)) {
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(2));
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            // The manager connects to an active pilot on a thread of its own; one task done first
            // means it has, so the submit below sends from its own thread, in the profile's order.
            assertThat(tmgr.waitTasks(tmgr.submit(new TaskDescription().executable("/bin/true")),
                    Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 60_000)).containsOnly(TaskState.DONE);
            List<Task> tasks = tmgr.submit(java.util.stream.IntStream.range(0, 3000)
                    .mapToObj(i -> new TaskDescription().executable("/bin/true")).toList());
            assertThat(tmgr.waitTasks(tasks, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 60_000))
                    .containsOnly(TaskState.DONE);
        }
        List<String> lines = Files.readAllLines(sessionDir.resolve("banyan.prof"));
        int firstSent = indexOf(lines, ",task.000001,AGENT_STAGING_INPUT_PENDING,");
        int lastMade = indexOf(lines, ",task.003000,NEW,");
        assertThat(firstSent).as("the first task went to the pilot").isPositive();
        assertThat(firstSent).as("the first task left before the last was made").isLessThan(lastMade);
        assertThat(firstSent).as("...and before the 100th was made").isLessThan(indexOf(lines, ",task.000100,NEW,"));
    }

    /**
     * A submit whose tasks differ in priority goes out in full batches, as before the small first
     * batches: an urgent task at the end of the call still runs before the bag it came with.
     */
    @Test
    void anUrgentTaskAtTheEndOfALargeSubmitRunsBeforeItsBag() throws Exception {
        Path sessionDir = dir.resolve("urgent");
        try (Session session = new Session(sessionDir)) {
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(2));
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                work.add(new TaskDescription().executable("/bin/true"));
            }
            work.add(new TaskDescription().uid("urgent").executable("/bin/true").priority(10));
            List<Task> tasks = tmgr.submit(work);
            assertThat(tmgr.waitTasks(tasks, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 60_000))
                    .containsOnly(TaskState.DONE);
        }
        List<String> started = Files.readAllLines(sessionDir.resolve("banyan.prof")).stream()
                .filter(l -> l.contains(",exec_start,")).map(l -> l.split(","))
                .sorted(java.util.Comparator.comparingDouble(f -> Double.parseDouble(f[0]))).map(f -> f[4]).toList();
        assertThat(started.indexOf("urgent")).as("the urgent task's place among the 1,001 starts").isBetween(0, 10);
    }

    /**
     * Tasks waiting for pilots went whole to the first pilot up (its window is 1,024 tasks), and
     * the second one idled: six one-second tasks on two one-core pilots took six seconds on one.
     */
    @Test
    void tasksWaitingForTwoPilotsGoToBoth() throws Exception {
        try (Session session = new Session(dir.resolve("two"))) {
            TaskManager tmgr = new TaskManager(session);
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                work.add(new TaskDescription().executable("sleep").arguments("1"));
            }
            List<Task> tasks = tmgr.submit(work);
            PilotManager pmgr = new PilotManager(session);
            tmgr.addPilots(pmgr.submit(PilotDescription.local(1).warmUp(0)), pmgr.submit(PilotDescription.local(1).warmUp(0)));
            tmgr.waitTasks();
            assertThat(tasks).allMatch(t -> t.state() == TaskState.DONE);
            assertThat(tasks.stream().collect(java.util.stream.Collectors.groupingBy(t -> t.pilot().uid(),
                    java.util.stream.Collectors.counting()))).as("each pilot ran some").hasSize(2);
        }
    }

    /**
     * Late binding sends a task only to a pilot that can run it: a task asking for a GPU, or for
     * more cores than one pilot has, went to whichever pilot had given the fewest tasks per core
     * and FAILED there ("the pilot has no GPU") while the other pilot could have run it. A task
     * no pilot can run fails once every pilot added is up, with each one's reason.
     */
    @Test
    void aTaskGoesOnlyToAPilotItFits() throws Exception {
        try (Session session = new Session(dir.resolve("fits"))) {
            TaskManager tmgr = new TaskManager(session);
            PilotManager pmgr = new PilotManager(session);
            // the small pilot active, the big one starting: before, the small one took every task and
            // failed those it could not run; now they wait for the big one
            Pilot small = pmgr.submit(PilotDescription.local(1).gpus(0).warmUp(0));
            tmgr.addPilots(small);
            assertThat(small.waitState(PilotState.PMGR_ACTIVE, 60_000)).isEqualTo(PilotState.PMGR_ACTIVE);
            Pilot big = pmgr.submit(PilotDescription.local(2).gpus(1).warmUp(0));
            tmgr.addPilots(big);
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                work.add(new TaskDescription().executable("true").gpusPerRank(1));
                work.add(new TaskDescription().executable("true").coresPerRank(2));
                work.add(new TaskDescription().executable("true"));
            }
            List<Task> tasks = tmgr.submit(work);
            tmgr.waitTasks();
            for (int i = 0; i < tasks.size(); i++) {
                Task t = tasks.get(i);
                assertThat(t.state()).as(t.uid() + ": " + t.detail()).isEqualTo(TaskState.DONE);
                if (i % 3 < 2) { // a GPU, or two cores: only the big pilot has them
                    assertThat(t.pilot()).as(t.uid()).isSameAs(big);
                }
            }
            assertThat(tasks).filteredOn(t -> tasks.indexOf(t) % 3 == 2).allMatch(t -> t.pilot() == small);
            Task never = tmgr.submit(new TaskDescription().executable("true").coresPerRank(3)).getFirst();
            tmgr.waitTasks(List.of(never));
            assertThat(never.state()).isEqualTo(TaskState.FAILED);
            assertThat(never.detail()).startsWith("no pilot of this task manager can run it: ")
                    .contains(small.uid() + ": a rank of 3 cores does not fit any node (the largest has 1)")
                    .contains(big.uid() + ": a rank of 3 cores does not fit any node (the largest has 2)");
        }
    }

    /**
     * RADICAL-Pilot's {@code pilot} field: a task that names a pilot runs there only; one naming
     * a pilot that is over, or none of the manager's, fails saying so once every pilot is up.
     */
    @Test
    void aTaskThatNamesItsPilotRunsThereOnly() throws Exception {
        try (Session session = new Session(dir.resolve("pinned"))) {
            TaskManager tmgr = new TaskManager(session);
            PilotManager pmgr = new PilotManager(session);
            Pilot a = pmgr.submit(PilotDescription.local(1).warmUp(0));
            Pilot b = pmgr.submit(PilotDescription.local(1).warmUp(0));
            tmgr.addPilots(a, b);
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                work.add(new TaskDescription().executable("true").pilot(b.uid()));
            }
            List<Task> tasks = tmgr.submit(work);
            tmgr.waitTasks();
            assertThat(tasks).allMatch(t -> t.state() == TaskState.DONE && t.pilot() == b);
            Task nowhere = tmgr.submit(new TaskDescription().executable("true").pilot("pilot.9999")).getFirst();
            tmgr.waitTasks(List.of(nowhere));
            assertThat(nowhere.detail()).isEqualTo("no pilot of this task manager can run it: it names pilot pilot.9999, "
                    + "which is not one of this task manager's (" + a.uid() + ", " + b.uid() + ")");
            pmgr.cancel(a);
            assertThat(a.waitState(PilotState.CANCELED, 30_000)).isEqualTo(PilotState.CANCELED);
            Task late = tmgr.submit(new TaskDescription().executable("true").pilot(a.uid())).getFirst();
            tmgr.waitTasks(List.of(late));
            assertThat(late.state()).isEqualTo(TaskState.FAILED);
            assertThat(late.detail()).isEqualTo("no pilot of this task manager can run it: its pilot " + a.uid() + " CANCELED is over");
        }
    }

    /**
     * A pilot that is up but whose DVM this task manager cannot connect to (here its secret
     * changed after the pilot connected) was left out without a word, and the tasks only it could
     * run waited for ever. It counts as a pilot that fits nothing, and they fail saying why.
     */
    @Test
    void aPilotTheManagerCannotReachFailsItsTasksSayingWhy() throws Exception {
        Path uri = dir.resolve("dvm.uri");
        Banyan.Result started = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:1");
        assertThat(started.exit()).as(started.stderr()).isZero();
        Path secret = dir.resolve("dvm.uri.secret");
        String real = Files.readString(secret);
        try (Session session = new Session(dir.resolve("cut"))) {
            Pilot pilot = new PilotManager(session).submit(PilotDescription.dvm(uri));
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).isEqualTo(PilotState.PMGR_ACTIVE);
            Files.writeString(secret, "0".repeat(64) + "\n");
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            Task t = tmgr.submit(new TaskDescription().executable("true")).getFirst();
            assertThat(tmgr.waitTasks(List.of(t), Set.of(TaskState.FAILED), 30_000)).containsExactly(TaskState.FAILED);
            assertThat(t.detail()).startsWith("cannot run on this pilot: this task manager cannot connect to its DVM: the DVM of "
                    + uri + " refused the connection");
        } finally {
            Files.writeString(secret, real);
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
            Banyan.assertNoProcessesWith(uri.toString());
        }
    }

    /**
     * An ssh pilot whose host cannot be reached stayed PMGR_LAUNCHING for a minute (its DVM's head
     * waited for ever for the daemon ssh had failed to start), then failed with "see the log".
     * It fails as soon as ssh does, saying why.
     */
    @Test
    void aPilotWhoseHostCannotBeReachedFailsAtOnceSayingWhy() throws Exception {
        try (Session session = new Session(dir.resolve("unreachable"))) {
            Pilot pilot = new PilotManager(session).submit(PilotDescription.ssh(List.of("nosuchhost.invalid:1")));
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 50_000)).as(pilot.toString()).isEqualTo(PilotState.FAILED);
            assertThat(pilot.detail()).startsWith("the pilot's DVM did not start: lost the daemon on nosuchhost.invalid: ");
            assertThat(pilot.toString()).isEqualTo(pilot.uid() + " FAILED (" + pilot.detail() + ")");
        }
        Banyan.assertNoProcessesWith(dir.resolve("unreachable").toString());
    }

    /**
     * A pilot whose DVM went away under it (killed, or stopped from a shell) stayed PMGR_ACTIVE
     * for ever, while its tasks failed with "lost the pilot". It is FAILED now, saying why; one
     * the program ends itself is still CANCELED, not FAILED.
     */
    @Test
    void aPilotWhoseDvmGoesAwayIsFailedAndOneEndedHereIsNot() throws Exception {
        Path uri = dir.resolve("shell-dvm.uri");
        Banyan.Result started = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2", "--warm-up", "0");
        assertThat(started.exit()).as(started.stderr()).isZero();
        Pilot local;
        Pilot attached;
        Pilot watched;
        Pilot ended;
        try (Session session = new Session(dir.resolve("lost"))) {
            PilotManager pmgr = new PilotManager(session);
            local = pmgr.submit(PilotDescription.local(1).warmUp(0));
            attached = pmgr.submit(PilotDescription.dvm(uri));
            watched = pmgr.submit(PilotDescription.dvm(uri)); // no task manager: it watches the DVM itself
            ended = pmgr.submit(PilotDescription.local(1).warmUp(0));
            for (Pilot p : List.of(local, attached, watched, ended)) {
                assertThat(p.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(p.toString()).isEqualTo(PilotState.PMGR_ACTIVE);
            }
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(attached);
            // what a task's callback sees of its pilot when the task fails for its loss (it read PMGR_ACTIVE)
            java.util.concurrent.atomic.AtomicReference<PilotState> pilotWhenFailed = new java.util.concurrent.atomic.AtomicReference<>();
            tmgr.registerCallback((t, s) -> {
                if (s == TaskState.FAILED) {
                    pilotWhenFailed.set(t.pilot().state());
                }
            });
            Task sleeper = tmgr.submit(new TaskDescription().executable("sleep").arguments("60")).getFirst();
            assertThat(tmgr.waitTasks(List.of(sleeper), Set.of(TaskState.AGENT_EXECUTING), 30_000))
                    .containsExactly(TaskState.AGENT_EXECUTING);

            long head = Long.parseLong(Files.readAllLines(session.dir().resolve(local.uid()).resolve("dvm.uri")).get(1).strip());
            ProcessHandle.of(head).orElseThrow().destroyForcibly();
            assertThat(local.waitState(PilotState.DONE, 20_000)).as("no task manager watches it").isEqualTo(PilotState.FAILED);
            assertThat(local.detail()).startsWith("its DVM ended (status 137; see ");

            assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();
            assertThat(attached.waitState(PilotState.DONE, 20_000)).isEqualTo(PilotState.FAILED);
            assertThat(attached.detail()).isEqualTo("lost its DVM (it was stopped by banyan dvm stop)");
            assertThat(watched.waitState(PilotState.DONE, 20_000)).isEqualTo(PilotState.FAILED);
            assertThat(watched.detail()).as("a pilot only watched hears why too").isEqualTo("lost its DVM (it was stopped by banyan dvm stop)");
            assertThat(tmgr.waitTasks(List.of(sleeper), Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 20_000))
                    .containsExactly(TaskState.FAILED);
            assertThat(sleeper.detail()).isEqualTo("lost the pilot " + attached.uid() + " (it was stopped by banyan dvm stop)");
            assertThat(pilotWhenFailed.get()).as("the pilot, seen from the failed task's callback").isEqualTo(PilotState.FAILED);
        }
        assertThat(ended.state()).isEqualTo(PilotState.CANCELED);
        Banyan.assertNoProcessesWith(dir.toString());
    }

    /**
     * What users' callbacks do: submit the next step when a task is DONE (it deadlocked: the
     * callback runs on the thread that reads the pilot's acceptances), and throw (it ended that
     * thread, or the pilot's launcher, and everything stopped where it was).
     */
    @Test
    void callbacksMaySubmitTheNextStepAndOnesThatThrowStopNothing() throws Exception {
        List<Throwable> reported = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> reported.add(e));
        try (Session session = new Session(dir.resolve("s"))) {
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(2));
            pilot.onState((p, st) -> {
                throw new IllegalStateException("pilot listener at " + st);
            });
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            tmgr.registerCallback((t, st) -> {
                if (st == TaskState.AGENT_EXECUTING) {
                    throw new IllegalStateException("task callback at " + st);
                }
            });
            java.util.concurrent.BlockingQueue<Task> next = new java.util.concurrent.LinkedBlockingQueue<>();
            tmgr.registerCallback((t, st) -> {
                if (st == TaskState.DONE && t.uid().matches("step\\.[0-2]")) {
                    int n = Integer.parseInt(t.uid().substring(5)) + 1;
                    next.add(tmgr.submit(new TaskDescription().uid("step." + n).executable("/bin/echo").arguments("" + n)).getFirst());
                }
            });
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            Task first = tmgr.submit(new TaskDescription().uid("step.0").executable("/bin/true")).getFirst();
            List<Task> steps = new ArrayList<>(List.of(first));
            for (int i = 1; i <= 3; i++) {
                Task t = next.poll(20, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(t).as("step " + i + " submitted from step " + (i - 1) + "'s DONE callback").isNotNull();
                steps.add(t);
            }
            assertThat(tmgr.waitTasks(steps, Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 20_000))
                    .containsOnly(TaskState.DONE);
            assertThat(dir.resolve("s/step.3/step.3.out")).hasContent("3");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        assertThat(reported).extracting(Throwable::getMessage)
                .contains("pilot listener at PMGR_ACTIVE", "task callback at AGENT_EXECUTING");
    }

    private static int indexOf(List<String> lines, String part) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        return -1;
    }
}
