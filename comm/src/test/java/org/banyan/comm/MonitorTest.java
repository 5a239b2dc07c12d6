package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Monitoring counts exactly what a program with known traffic sends, and only while it is on. */
class MonitorTest {
    @TempDir
    Path dir;

    /** Rank 0 → 1: 3 × 100 bytes monitored, 5 more while stopped; then a bcast and a reduce at 4 ranks. */
    static Monitor.Snapshot knownTraffic(Comm w) {
        Monitor m = w.monitor();
        if (w.rank() == 0) {
            for (int i = 0; i < 3; i++) {
                w.send(new byte[100], 1, 0);
            }
        } else if (w.rank() == 1) {
            for (int i = 0; i < 3; i++) {
                w.recv(new byte[100], 0, 0);
            }
        }
        w.barrier();
        m.stop();
        if (w.rank() == 0) {
            for (int i = 0; i < 5; i++) {
                w.send(new byte[100], 1, 0);
            }
        } else if (w.rank() == 1) {
            for (int i = 0; i < 5; i++) {
                w.recv(new byte[100], 0, 0);
            }
        }
        m.reset();
        m.start();
        w.bcast(new byte[1000], 0); // binomial: 0 → 2, 0 → 1, 2 → 3
        w.reduce(new long[10], new long[10], Op.SUM, 0); // binomial: 1 → 0, 3 → 2, 2 → 0
        return m.snapshot();
    }

    @Test
    void countsArePerPeerAndKindAndOnlyWhileOn() throws Exception {
        List<Monitor.Snapshot> s = LocalJob.run(4, r -> "h", Map.of("BANYAN_MONITOR", "all",
                "BANYAN_MONITOR_OUT", dir.toString()), MonitorTest::knownTraffic);
        // reset after the first phase: only bcast and reduce remain
        assertThat(s.get(0).messages(Monitor.Kind.EXTERNAL, 1)).isZero();
        assertThat(s.get(0).messages(Monitor.Kind.INTERNAL, 1)).isEqualTo(1);
        assertThat(s.get(0).bytes(Monitor.Kind.INTERNAL, 2)).isEqualTo(1000);
        assertThat(s.get(0).messages(Monitor.Kind.INTERNAL, 3)).isZero();
        assertThat(s.get(1).bytes(Monitor.Kind.INTERNAL, 0)).isEqualTo(80);
        assertThat(s.get(2).bytes(Monitor.Kind.INTERNAL, 3)).isEqualTo(1000);
        assertThat(s.get(2).bytes(Monitor.Kind.INTERNAL, 0)).isEqualTo(80);
        assertThat(s.get(3).bytes(Monitor.Kind.INTERNAL, 2)).isEqualTo(80);
        assertThat(s.get(3).messages(Monitor.Kind.INTERNAL, 0)).isZero();
        // the logical view, at the root as Open MPI records it: 1000 bytes to each, 80 from each
        assertThat(s.get(0).bytes(Monitor.Kind.COLLECTIVE, 3)).isEqualTo(1080);
        assertThat(s.get(0).messages(Monitor.Kind.COLLECTIVE, 3)).isEqualTo(2);
        assertThat(s.get(3).messages(Monitor.Kind.COLLECTIVE, 0)).isZero();
        Monitor.CollectiveTraffic world = s.get(0).collectives().get("MPI_COMM_WORLD");
        assertThat(world.operations(Monitor.Shape.ONE_TO_ALL)).isEqualTo(1);
        assertThat(world.bytes(Monitor.Shape.ONE_TO_ALL)).isEqualTo(3000);
        assertThat(world.bytes(Monitor.Shape.ALL_TO_ONE)).isEqualTo(240);
        assertThat(s.get(2).collectives().get("MPI_COMM_WORLD").operations(Monitor.Shape.ALL_TO_ONE)).isZero();
        // the live counters the dashboard reads, as the world closed: what rank 2 sent, by peer
        assertThat(java.nio.file.Files.readAllLines(dir.resolve("live").resolve("rank.2")))
                .containsExactly("banyan-live 1 2 4", "0 80 1", "3 1000 1");
    }

    @Test
    void theProfileIsOpenMpisLayout() throws Exception {
        LocalJob.run(2, r -> "h", Map.of("BANYAN_MONITOR", "all", "BANYAN_MONITOR_OUT", dir.toString()), w -> {
            if (w.rank() == 0) {
                w.send(new byte[100], 1, 0);
                w.send(new byte[0], 1, 0);
            } else {
                w.recv(new byte[100], 0, 0);
                w.recv(new byte[0], 0, 0);
            }
            w.bcast(new byte[64], 0);
            return null;
        });
        List<String> zero = Files.readAllLines(dir.resolve("banyan.0.prof"));
        String hist = "1,0,0,0,0,0,0,2" + ",0".repeat(58); // the bcast's 64 bytes count too
        assertThat(zero).containsExactly(
                "# POINT TO POINT",
                "E\t0\t1\t100 bytes\t2 msgs sent\t" + hist,
                "I\t0\t1\t64 bytes\t1 msgs sent",
                "# OSC",
                "# COLLECTIVES",
                "C\t0\t1\t64 bytes\t1 msgs sent",
                "D\tMPI_COMM_WORLD\tprocs: 0,1",
                "O2A\t0\t64 bytes\t1 msgs sent",
                "A2O\t0\t0 bytes\t0 msgs sent",
                "A2A\t0\t0 bytes\t0 msgs sent");
        List<String> one = Files.readAllLines(dir.resolve("banyan.1.prof"));
        assertThat(one).containsExactly("# POINT TO POINT", "# OSC", "# COLLECTIVES",
                "D\tMPI_COMM_WORLD\tprocs: 0,1", "O2A\t1\t0 bytes\t0 msgs sent", "A2O\t1\t0 bytes\t0 msgs sent",
                "A2A\t1\t0 bytes\t0 msgs sent");
    }
}
