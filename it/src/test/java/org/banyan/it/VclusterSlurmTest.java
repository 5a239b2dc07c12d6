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
 * banyan run inside a real Slurm allocation (../shared/vcluster up 4 --slurm): hosts come from
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

    @Test
    void mpichRingWithDaemonsStartingDaemonsThroughSrun() throws Exception {
        Result r = run("run", "--spawn-degree", "2", dir.resolve("ring").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("token 12 after 3 laps\n");
    }

    @Test
    void aDaemonKilledMidJobEndsTheJobAndLeavesNothing() throws Exception {
        String m = Banyan.marker();
        Banyan.assertLosingDaemonZeroEndsTheJob(salloc("run", "--spawn-degree", "2", "sleep", m), m, HOSTS, "node1");
    }
}
