package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * banyan run inside a real Slurm allocation (bin/testhosts up 4 --slurm): hosts come from
 * the allocation and every daemon is an srun step, started by its parent in the tree.
 */
class VclusterSlurmTest {
    static final int HOSTS = 4;

    @TempDir
    static Path dir;

    @BeforeAll
    static void up() throws Exception {
        Vcluster.up(HOSTS, true);
        Path src = dir.resolve("ring.c");
        Files.writeString(src, MpichInteropTest.PROGRAMS.get("ring"));
        Vcluster.run("mpicc.mpich", "-std=c99", "-o", dir.resolve("ring").toString(), src.toString());
        Vcluster.run("mpicc.openmpi", "-std=c99", "-o", dir.resolve("ring-ompi").toString(), src.toString());
        Path spawn = dir.resolve("spawn.c");
        Files.writeString(spawn, OpenMpiInteropTest.PROGRAMS.get("spawn"));
        Vcluster.run("mpicc.openmpi", "-std=c99", "-o", dir.resolve("spawn-ompi").toString(), spawn.toString());
    }

    @AfterAll
    static void down() throws Exception {
        Vcluster.down();
    }

    /** {@code salloc -N 4 banyan ARGS}. */
    static ProcessBuilder salloc(String... args) {
        List<String> cmd = new ArrayList<>(List.of("salloc", "-N", Integer.toString(HOSTS), Banyan.SCRIPT.toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    }

    record Result(int exit, String stdout, String stderr) {}

    static Result run(String... args) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = salloc(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    static List<String> lines(String s) {
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
    }

    @Test
    void theAllocationIsTheHostListAndSrunStartsTheDaemons() throws Exception {
        Result r = run("run", "--report-launch", "hostname");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("node1", "node2", "node3", "node4");
        assertThat(r.stderr()).contains("launch agent slurm");
    }

    /**
     * A hybrid job ({@code salloc -n 2 -c 2}, nodes of 2 CPUs): one rank per task, as mpirun and
     * srun run it, not one per CPU (it ran 4, two per node, each rank's threads sharing its CPUs).
     */
    @Test
    void aHybridAllocationGetsARankPerTask() throws Exception {
        Path out = Files.createTempFile(dir, "hybrid", ".txt");
        Process p = new ProcessBuilder("salloc", "-n", "2", "-c", Integer.toString(Runtime.getRuntime().availableProcessors()),
                Banyan.SCRIPT.toString(), "run", "hostname").redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroy(); // salloc ends its job, and the job's steps with it
            p.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(p.exitValue()).isZero();
        assertThat(lines(Files.readString(out))).hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void mpichRingWithDaemonsStartingDaemonsThroughSrun() throws Exception {
        Result r = run("run", "--spawn-degree", "2", dir.resolve("ring").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("token 12 after 3 laps\n");
    }

    /** Open MPI's build: its ranks wire up through the PMIx servers of daemons srun started. */
    @Test
    void openMpiRingOverTheAllocationThroughPmix() throws Exception {
        Result r = run("run", "--spawn-degree", "2", dir.resolve("ring-ompi").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("token 12 after 3 laps\n");
    }

    /** MPI_Comm_spawn in an allocation: the children take the nodes the parent left free. */
    @Test
    void openMpiSpawnTakesTheFreeNodesOfTheAllocation() throws Exception {
        Result r = run("run", "-n", "2", dir.resolve("spawn-ompi").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(Arrays.asList(r.stdout().split("\n"))).containsExactlyInAnyOrder("parent 0 of 2 got 43 back", "child 0 of 2 (talk) got 42",
                "child 1 of 2 (talk) got 43");
    }

    /** The same inside a Slurm allocation: the DVM's hosts are the allocation's nodes, its daemons started by srun. */
    @Test
    void aMalleableJobShrinksAndGrowsInsideAnAllocation() throws Exception {
        Path work = Files.createDirectories(dir.resolve("malleable-slurm"));
        Process p = new ProcessBuilder("salloc", "-N", Integer.toString(HOSTS), "sh", VclusterMalleable.script(work).toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true)
                .redirectOutput(work.resolve("script.out").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(work.resolve("script.out"))).isZero();
        VclusterMalleable.assertResizedWithItsDataIntact(work);
        Banyan.assertNoProcessesWith("FlexibleSleep");
    }

    /**
     * An elastic DVM over 3 of the 4 nodes gives a free host back when a job waiting in Slurm
     * needs 2 nodes and only 1 is idle: its daemon leaves, the allocation shrinks (scontrol
     * update), the waiting job runs, and the DVM goes on with the hosts it kept.
     */
    @Test
    void anElasticDvmGivesAFreeHostBackSoAJobWaitingInSlurmStarts() throws Exception {
        Path work = Files.createDirectories(dir.resolve("elastic"));
        Path script = work.resolve("elastic.sh");
        Files.writeString(script, """
                B='%s'; W='%s'
                cd "$W"
                "$B" dvm start --elastic --uri-file "$W/dvm.uri" || exit 3
                waiter=$(sbatch --parsable -N 2 --exclusive -o "$W/waiter.out" --wrap 'srun hostname')
                i=0
                until [ "$(squeue -h -j $waiter -o %%T)" != PENDING ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
                squeue -h -j "$SLURM_JOB_ID" -o %%N > "$W/dvm-nodes"
                "$B" dvm status --dvm "$W/dvm.uri" > "$W/status"
                "$B" dvm submit --dvm "$W/dvm.uri" --nodes 2 hostname > "$W/submit.out" 2>&1 < /dev/null
                "$B" dvm stop --dvm "$W/dvm.uri"
                i=0
                until [ -z "$(squeue -h -j $waiter -o %%T)" ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
                scancel "$waiter" 2>/dev/null
                """.formatted(Banyan.SCRIPT, work));
        Process p = new ProcessBuilder("salloc", "-N", "3", "sh", script.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true)
                .redirectOutput(work.resolve("script.out").toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(work.resolve("dvm.uri.log"));
        assertThat(p.exitValue()).as(Files.readString(work.resolve("script.out")) + log).isZero();
        assertThat(log).contains("giving [node3] back to Slurm: a job waiting there needs 2 node(s), 1 idle")
                .contains("the daemon on node3 has left").containsPattern("Slurm job \\d+ shrunk to node1,node2");
        assertThat(Files.readString(work.resolve("dvm-nodes")).strip()).isEqualTo("node[1-2]");
        assertThat(Files.readString(work.resolve("status"))).containsPattern("(?m)^node3\\s+1\\s+0\\s+given back$")
                .containsPattern("(?m)^node1\\s+1\\s+0\\s+up$");
        assertThat(lines(Files.readString(work.resolve("submit.out")))).containsExactlyInAnyOrder("node1", "node2");
        assertThat(lines(Files.readString(work.resolve("waiter.out")))).containsExactlyInAnyOrder("node3", "node4");
        Banyan.assertNoProcessesWith(work.resolve("dvm.uri").toString());
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    /**
     * An elastic DVM with room for more hosts than its job has ({@code --max-nodes}) grows when
     * a queued job wants more: it asks Slurm for an idle node with a second allocation, a daemon
     * starts there and fills a vacant slot, and the job runs on the three hosts. The second
     * allocation ends with the DVM. Bad --max-nodes values are one line each, nothing started.
     */
    @Test
    void anElasticDvmGrowsIntoAnIdleNodeWhenAQueuedJobWantsMoreHostsThanItHas() throws Exception {
        Path work = Files.createDirectories(dir.resolve("elastic-grow"));
        Path script = work.resolve("grow.sh");
        Files.writeString(script, """
                B='%s'; W='%s'
                cd "$W"
                "$B" dvm start --max-nodes 3 --uri-file "$W/bad.uri" > "$W/bad" 2>&1; echo "status $?" >> "$W/bad"
                "$B" dvm start --elastic --max-nodes 1 --uri-file "$W/bad.uri" >> "$W/bad" 2>&1; echo "status $?" >> "$W/bad"
                "$B" dvm start --elastic-period 5 --uri-file "$W/bad.uri" >> "$W/bad" 2>&1; echo "status $?" >> "$W/bad"
                "$B" dvm start --elastic --elastic-period 0 --uri-file "$W/bad.uri" >> "$W/bad" 2>&1; echo "status $?" >> "$W/bad"
                "$B" dvm start --elastic --warm-up 10 --uri-file "$W/bad.uri" >> "$W/bad" 2>&1; echo "status $?" >> "$W/bad"
                "$B" dvm start --elastic --max-nodes 4 --elastic-period 1 --uri-file "$W/dvm.uri" || exit 3
                "$B" dvm status --dvm "$W/dvm.uri" > "$W/status-before"
                "$B" dvm submit --dvm "$W/dvm.uri" --nodes 3 hostname > "$W/submit.out" 2> "$W/submit.err" < /dev/null
                squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o "%%i %%N %%C" > "$W/grown"
                "$B" dvm status --dvm "$W/dvm.uri" > "$W/status-after"
                "$B" dvm stop --dvm "$W/dvm.uri"
                i=0
                until [ -z "$(squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o %%i)" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
                squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o %%i > "$W/after-stop"
                """.formatted(Banyan.SCRIPT, work));
        // whole nodes: the hosts it grows into must have as many CPUs as the DVM's slots
        Process p = new ProcessBuilder("salloc", "-N", "2", "--exclusive", "sh", script.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true)
                .redirectOutput(work.resolve("script.out").toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(work.resolve("dvm.uri.log"));
        assertThat(p.exitValue()).as(Files.readString(work.resolve("script.out")) + log).isZero();
        assertThat(lines(Files.readString(work.resolve("bad")))).containsExactly(
                "banyan dvm: --max-nodes is for an elastic DVM: add --elastic", "status 2",
                "banyan dvm: --max-nodes 1 is less than the Slurm job's 2 nodes", "status 2",
                "banyan dvm: --elastic-period is for an elastic DVM: add --elastic", "status 2",
                "banyan dvm: --elastic-period must be between 0.1 and 86400 seconds, not 0", "status 2",
                "banyan dvm: --warm-up: its tasks would make an elastic DVM ask Slurm for more hosts; drop it", "status 2");
        assertThat(work.resolve("bad.uri.log")).doesNotExist();
        assertThat(Files.readString(work.resolve("status-before"))).containsPattern("(?m)^node2\\s+2\\s+0\\s+up$")
                .containsPattern("(?m)^\\(vacant\\)\\s+2\\s+0\\s+vacant$");
        assertThat(log).contains("ready: 2 host(s), 4 slot(s), room for 2 more")
                .contains("asking Slurm for 1 host(s): the DVM's jobs want 1 host(s) more")
                .containsPattern("Slurm granted job \\d+ on \\[node3\\]")
                .containsPattern("the daemon on node3 is back, in Slurm job \\d+");
        assertThat(Files.readString(work.resolve("submit.err"))).contains("job 1 waits for 3 hosts");
        assertThat(lines(Files.readString(work.resolve("submit.out")))).containsExactlyInAnyOrder("node1", "node2", "node3");
        assertThat(Files.readString(work.resolve("grown")).strip()).as("as many CPUs as the slot it fills; it had one").matches("\\d+ node3 2");
        assertThat(Files.readString(work.resolve("status-after"))).containsPattern("(?m)^node3\\s+2\\s+0\\s+up$");
        assertThat(Files.readString(work.resolve("after-stop")).strip()).as("nothing of it outlives the DVM").isEmpty();
        Banyan.assertNoProcessesWith(work.resolve("dvm.uri").toString());
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    /**
     * A second allocation is made with {@code salloc --no-shell}: nothing but the DVM ends it.
     * When the head is killed (SIGKILL: it cannot cancel anything), the daemon it started there
     * loses its parent without being told to leave and cancels that allocation itself.
     */
    @Test
    void aKilledElasticHeadsSecondAllocationEndsWithItsDaemon() throws Exception {
        Path work = Files.createDirectories(dir.resolve("elastic-killed"));
        Path script = work.resolve("kill.sh");
        Files.writeString(script, """
                B='%s'; W='%s'
                cd "$W"
                "$B" dvm start --elastic --max-nodes 3 --elastic-period 1 --uri-file "$W/dvm.uri" || exit 3
                "$B" dvm submit --dvm "$W/dvm.uri" --nodes 3 hostname > "$W/submit.out" 2> "$W/submit.err" < /dev/null
                squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o "%%i %%N" > "$W/grown"
                kill -9 "$(sed -n 2p "$W/dvm.uri")"
                i=0
                until [ -z "$(squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -t PD,R,CG -o %%i)" ] || [ $i -ge 200 ]; do sleep 0.1; i=$((i + 1)); done
                squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -t PD,R,CG -o %%i > "$W/after-kill"
                """.formatted(Banyan.SCRIPT, work));
        Process p = new ProcessBuilder("salloc", "-N", "2", "sh", script.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true)
                .redirectOutput(work.resolve("script.out").toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(work.resolve("dvm.uri.log"));
        assertThat(p.exitValue()).as(Files.readString(work.resolve("script.out")) + log).isZero();
        assertThat(lines(Files.readString(work.resolve("submit.out")))).containsExactlyInAnyOrder("node1", "node2", "node3");
        assertThat(Files.readString(work.resolve("grown")).strip()).as("the DVM grew into a second allocation")
                .matches("\\d+ node3");
        assertThat(Files.readString(work.resolve("after-kill")).strip()).as("the second allocation ended with the head")
                .isEmpty();
        Banyan.assertNoProcessesWith(work.resolve("dvm.uri").toString());
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    /**
     * The seed's shrink one level up: FlexibleSleep runs on 2 of an elastic DVM's 3 nodes when
     * a job needing 3 nodes comes to wait in Slurm (1 idle). The free host is not enough, so
     * the job shrinks to 1 at its next check; then both free hosts go back, the allocation
     * shrinks to node1, and the waiting job runs. Once it is done and nothing waits in Slurm,
     * the DVM asks for node2 again (a second allocation), its daemon rejoins and FlexibleSleep
     * grows back to 2, its data checked at every step. A second waiting job then gets node2
     * back: the second allocation is cancelled, and nothing of it outlives the DVM.
     */
    @Test
    void anElasticDvmShrinksARunningMalleableJobForAJobWaitingInSlurmAndGrowsItBackAfter() throws Exception {
        Path work = Files.createDirectories(dir.resolve("elastic-malleable"));
        String cp = CommExamples.compile(work.resolve("classes"));
        Path script = work.resolve("elastic.sh");
        Files.writeString(script, """
                B='%s'; W='%s'
                cd "$W"
                "$B" dvm start --elastic --uri-file "$W/dvm.uri" || exit 3
                "$B" dvm submit --dvm "$W/dvm.uri" --nodes 1:2 --time 30 '%s' -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \\
                    -Xshare:auto -cp '%s' FlexibleSleep 24 1.2 100003 > "$W/flexible.out" 2>&1 < /dev/null &
                f=$!
                i=0
                until grep -q "step 1: 2 rank" "$W/flexible.out" 2>/dev/null || [ $i -ge 900 ]; do sleep 0.1; i=$((i + 1)); done
                waiter=$(sbatch --parsable -N 3 --exclusive -o "$W/waiter.out" --wrap 'srun hostname')
                i=0
                until [ "$(squeue -h -j $waiter -o %%T)" != PENDING ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
                squeue -h -j "$SLURM_JOB_ID" -o %%N > "$W/dvm-nodes"
                i=0
                until grep -q "expand from 1" "$W/flexible.out" 2>/dev/null || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
                squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o "%%i %%N" > "$W/grown"
                wait $f
                echo "flexible exit $?" >> "$W/flexible.out"
                i=0
                until [ -z "$(squeue -h -j $waiter -o %%T)" ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
                waiter2=$(sbatch --parsable -N 3 --exclusive -o "$W/waiter2.out" --wrap 'srun hostname')
                i=0
                until [ "$(squeue -h -j $waiter2 -o %%T)" != PENDING ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
                squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o %%i > "$W/given-back-again"
                "$B" dvm stop --dvm "$W/dvm.uri"
                i=0
                until [ -z "$(squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o %%i)" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
                squeue -h -n "banyan-dvm-$SLURM_JOB_ID" -o %%i > "$W/after-stop"
                i=0
                until [ -z "$(squeue -h -j $waiter2 -o %%T)" ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
                scancel "$waiter" "$waiter2" 2>/dev/null
                """.formatted(Banyan.SCRIPT, work, JavaClient.JAVA, cp));
        Process p = new ProcessBuilder("salloc", "-N", "3", "sh", script.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true)
                .redirectOutput(work.resolve("script.out").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(work.resolve("dvm.uri.log"));
        String flexible = Files.readString(work.resolve("flexible.out"));
        assertThat(p.exitValue()).as(Files.readString(work.resolve("script.out")) + log).isZero();
        assertThat(flexible).as(flexible + log).contains("flexible exit 0")
                .containsPattern("step \\d+: 1 rank\\(s\\) \\(shrink from 2, [0-9.]+ ms\\)")
                .as("grown back once the waiting job was done").containsPattern("step \\d+: 2 rank\\(s\\) \\(expand from 1,")
                .contains("step 23: 2 rank(s)");
        for (int step = 0; step < 24; step++) {
            assertThat(flexible).as("every step ran once, its data checked").containsOnlyOnce("step " + step + ":");
        }
        assertThat(log).contains("job 1: shrink to 1 rank(s)")
                .contains("giving [node3, node2] back to Slurm: a job waiting there needs 3 node(s), 1 idle")
                .containsPattern("Slurm job \\d+ shrunk to node1");
        assertThat(Files.readString(work.resolve("dvm-nodes")).strip()).isEqualTo("node1");
        assertThat(lines(Files.readString(work.resolve("waiter.out")))).containsExactlyInAnyOrder("node2", "node3", "node4");
        assertThat(log).contains("asking Slurm for 1 host(s), [node2] first: the DVM's jobs want 1 host(s) more")
                .containsPattern("Slurm granted job \\d+ on \\[node2\\]")
                .containsPattern("the daemon on node2 is back, in Slurm job \\d+");
        assertThat(Files.readString(work.resolve("grown")).strip()).as("the second allocation holds node2")
                .matches("\\d+ node2");
        assertThat(log).as("given back again for a second waiting job: the allocation that held it is cancelled")
                .containsPattern("Slurm job \\d+ cancelled: it held only \\[node2\\]");
        assertThat(Files.readString(work.resolve("given-back-again")).strip()).isEmpty();
        assertThat(lines(Files.readString(work.resolve("waiter2.out")))).containsExactlyInAnyOrder("node2", "node3", "node4");
        assertThat(Files.readString(work.resolve("after-stop")).strip()).as("nothing of it outlives the DVM").isEmpty();
        Banyan.assertNoProcessesWith("FlexibleSleep");
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    @Test
    void aDaemonKilledMidJobEndsTheJobAndLeavesNothing() throws Exception {
        String m = Banyan.marker();
        Banyan.assertLosingDaemonZeroEndsTheJob(salloc("run", "--spawn-degree", "2", "sleep", m), m, HOSTS, "node1");
    }

    /**
     * Static endpoints: one srun starts all four daemons; daemons 2 and 3 find their parent,
     * daemon 0, at node1 and the port derived from the job, without being told.
     */
    @Test
    void withStaticPortsOneStepStartsEveryDaemonAndEachFindsItsParent() throws Exception {
        Result r = run("run", "--static-ports", "--spawn-degree", "2", "--report-launch", dir.resolve("ring").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("token 12 after 3 laps\n");
        assertThat(r.stderr()).containsPattern("launch agent slurm-step:2\\d{4}");
        // Daemon 0 holds the head and its two children in the spawn tree.
        assertThat(r.stderr()).containsPattern("(?m)^banyan run:\\s+0\\s+node1\\s+3\\s");
    }

    @Test
    void withStaticPortsADaemonKilledMidJobEndsTheJobAndLeavesNothing() throws Exception {
        String m = Banyan.marker();
        Banyan.assertLosingADaemonEndsTheJob(salloc("run", "--static-ports", "--spawn-degree", "2", "sleep", m), m,
                HOSTS, "node1", () -> Banyan.daemonJvmOnNode("node1"));
    }

    /**
     * A Slurm pilot (resource {@code slurm}): sbatch, its DVM on the allocation's nodes, tasks
     * on both, and at close the DVM stopped, the job gone from the queue, nothing left.
     */
    @Test
    void aSlurmPilotRunsTasksOnItsNodesAndEndsWithTheSession() throws Exception {
        String marker = Banyan.marker();
        org.banyan.pilot.Pilot pilot;
        try (org.banyan.pilot.Session session = new org.banyan.pilot.Session(dir.resolve("slurm-session"))) {
            pilot = new org.banyan.pilot.PilotManager(session).submit(org.banyan.pilot.PilotDescription.slurm(2).runtime(10));
            org.banyan.pilot.TaskManager tmgr = new org.banyan.pilot.TaskManager(session);
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(org.banyan.core.pilot.PilotState.PMGR_ACTIVE, 120_000)).as(pilot.detail())
                    .isEqualTo(org.banyan.core.pilot.PilotState.PMGR_ACTIVE);
            assertThat(pilot.cores()).as("two whole nodes (vcluster gives each this machine's CPUs); it had one core a node")
                    .isEqualTo(2 * Runtime.getRuntime().availableProcessors());
            List<org.banyan.pilot.TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 2 * pilot.cores(); i++) {
                work.add(new org.banyan.pilot.TaskDescription().executable("sh").arguments("-c", "hostname; sleep 0.5"));
            }
            List<org.banyan.pilot.Task> tasks = tmgr.submit(work);
            tmgr.waitTasks(tasks);
            java.util.Set<String> hosts = new java.util.TreeSet<>();
            for (org.banyan.pilot.Task t : tasks) {
                assertThat(t.state()).as(t.toString()).isEqualTo(org.banyan.core.pilot.TaskState.DONE);
                hosts.add(Files.readString(t.sandbox().resolve(t.uid() + ".out")).strip());
            }
            assertThat(hosts).as("both nodes of the allocation ran tasks").hasSize(2);
            tmgr.submit(new org.banyan.pilot.TaskDescription().executable("sleep").arguments(marker));
            Banyan.awaitSleeps(marker, 1);
        }
        assertThat(pilot.state()).isEqualTo(org.banyan.core.pilot.PilotState.CANCELED);
        Banyan.assertNoProcessesWith(marker);
        Banyan.assertNoProcessesWith("DvmMain");
        Process q = new ProcessBuilder("squeue", "-h", "-n", "banyan-" + pilot.uid(), "-o", "%i %T").redirectErrorStream(true).start();
        String queue = new String(q.getInputStream().readAllBytes()).strip();
        for (int i = 0; i < 50 && !queue.isEmpty(); i++) {
            Thread.sleep(200);
            q = new ProcessBuilder("squeue", "-h", "-n", "banyan-" + pilot.uid(), "-o", "%i %T").redirectErrorStream(true).start();
            queue = new String(q.getInputStream().readAllBytes()).strip();
        }
        assertThat(queue).as("the pilot's job left the queue").isEmpty();
    }

    @Test
    void aSlurmPilotThatSlurmRefusesFailsWithSlurmsReason() throws Exception {
        try (org.banyan.pilot.Session session = new org.banyan.pilot.Session(dir.resolve("refused-session"))) {
            org.banyan.pilot.Pilot pilot = new org.banyan.pilot.PilotManager(session)
                    .submit(org.banyan.pilot.PilotDescription.slurm(1).partition("no-such-partition"));
            assertThat(pilot.waitState(org.banyan.core.pilot.PilotState.FAILED, 60_000))
                    .isEqualTo(org.banyan.core.pilot.PilotState.FAILED);
            assertThat(pilot.detail()).startsWith("sbatch refused the pilot: ").contains("no-such-partition");
        }
    }

    @Test
    void staticPortsOutsideAnAllocationIsOneLine() throws Exception {
        Banyan.Result r = Banyan.run("run", "--static-ports", "--host", "node1,node2", "hostname");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr()).isEqualTo("banyan run: --static-ports starts the daemons of a Slurm allocation's own nodes: "
                + "run it inside salloc or sbatch, without --host, --hostfile or another --launcher\n");
    }
}
