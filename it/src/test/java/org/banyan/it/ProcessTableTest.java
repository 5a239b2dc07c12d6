package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.banyan.core.job.ProcessTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node-local process table: each daemon writes the whole job's table to shared memory before
 * its ranks start, ranks find it through BANYAN_PROCTABLE, and it is gone when the job is,
 * even when the daemon is killed.
 */
class ProcessTableTest {
    @TempDir
    Path dir;

    @Test
    void everyRankReadsTheWholeJobFromItsHostsTableAndNothingIsLeft() throws Exception {
        Banyan.Result r = Banyan.run("run", "--launcher", "local", "--host", "a:2,b:1,c:2", "-n", "5", "sh", "-c",
                "cp \"$BANYAN_PROCTABLE\" " + dir + "/table.$PMI_RANK && echo $BANYAN_PROCTABLE");
        assertThat(r.exit()).as(r.stderr()).isZero();
        List<String> paths = r.stdout().lines().distinct().toList();
        assertThat(paths).as("one table per daemon").hasSize(3).allMatch(p -> p.startsWith("/dev/shm/banyan-"));
        for (String p : paths) {
            assertThat(Path.of(p)).as("removed with its daemon").doesNotExist();
        }
        for (int reader = 0; reader < 5; reader++) {
            byte[] table = Files.readAllBytes(dir.resolve("table." + reader));
            assertThat(ProcessTable.read(table, 0)).isEqualTo(new ProcessTable.Entry(0, 0, "a", 0, 2, 0, -1, 0));
            assertThat(ProcessTable.read(table, 2)).isEqualTo(new ProcessTable.Entry(2, 1, "b", 0, 1, 0, -1, 0));
            assertThat(ProcessTable.read(table, 4)).isEqualTo(new ProcessTable.Entry(4, 2, "c", 1, 2, 0, -1, 0));
        }
    }

    @Test
    void aKilledDaemonsTableIsRemovedByItsGuard() throws Exception {
        String m = Banyan.marker();
        Process p = Banyan.builder(List.of("run", "--launcher", "local", "--host", "a", "-n", "1", "sh", "-c",
                "echo $BANYAN_PROCTABLE; exec sleep " + m)).start();
        String path = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream())).readLine();
        Banyan.awaitSleeps(m, 1);
        assertThat(Path.of(path)).exists();
        Banyan.daemonJvm(0, m).destroyForcibly();
        p.waitFor();
        Banyan.assertNothingLeft(m);
        for (int i = 0; i < 50 && Files.exists(Path.of(path)); i++) {
            Thread.sleep(100);
        }
        assertThat(Path.of(path)).doesNotExist();
    }
}
