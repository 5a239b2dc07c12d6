package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rank whose peers are all on other hosts waits for a late message in the kernel, not in
 * rounds of spinning, yielding and napping that take CPU from the ranks that share its cores;
 * and a second thread of such a rank is not held off by that wait.
 */
class SocketWaitTest {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** An oversubscribed rank (the shortest spin before it waits), every rank on a host of its own. */
    static final Map<String, String> ENV = Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1", "BANYAN_OVERSUBSCRIBED", "1");

    @Test
    void aRankWaitingForAMessageFromAnotherHostSpendsLittleCpuOnIt() throws Exception {
        List<long[]> out = LocalJob.run(2, r -> "host" + r, ENV, world -> {
            long[] got = new long[1];
            world.barrier(); // connected both ways
            if (world.rank() == 1) {
                Thread.sleep(1_500);
                world.send(new long[] {42}, 0, 7);
                return new long[] {0, 0, 0};
            }
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            world.recv(got, 1, 7);
            return new long[] {got[0], (THREADS.getCurrentThreadCpuTime() - cpu0) / 1_000_000, (System.nanoTime() - t0) / 1_000_000};
        });
        long[] waiter = out.getFirst();
        assertThat(waiter[0]).isEqualTo(42);
        assertThat(waiter[2]).as("waited ms").isGreaterThanOrEqualTo(1_400);
        // its spins and yields take 20-45 ms before it waits in the kernel; naps of 50 µs, each
        // with a look at the sockets, took about 125 ms of CPU for every half second of waiting
        assertThat(waiter[1]).as("CPU ms spent waiting " + waiter[2] + " ms").isLessThan(150);
    }

    @Test
    void anotherThreadOfAWaitingRankStillGetsItsMessagesThrough() throws Exception {
        List<Long> out = LocalJob.run(2, r -> "host" + r, ENV, world -> {
            world.barrier();
            long[] one = new long[1];
            if (world.rank() == 0) {
                Request late = world.irecv(java.lang.foreign.MemorySegment.ofArray(one), 1, 99);
                Thread waiter = Thread.ofPlatform().start(late::await); // in the kernel's wait most of the time
                long t0 = System.nanoTime();
                for (int i = 0; i < 200; i++) {
                    world.send(new long[] {i}, 1, 5);
                    world.recv(one, 1, 6);
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                world.send(new long[] {0}, 1, 8);
                waiter.join();
                return ms;
            }
            for (int i = 0; i < 200; i++) {
                world.recv(one, 0, 5);
                world.send(one, 0, 6);
            }
            world.recv(one, 0, 8);
            world.send(one, 0, 99);
            return 0L;
        });
        // 200 round trips; a waiter holding the engine for its whole 1 ms wait each time would take 0.4 s or more
        assertThat(out.getFirst()).as("ms for 200 round trips beside a waiting thread").isLessThan(3_000);
    }

    @Test
    void nonBlockingCollectivesFinishedByTheCollectiveThreadAreSeenByAThreadWaitingOnTheSockets() throws Exception {
        List<Double> out = LocalJob.run(2, r -> "host" + r, ENV, world -> {
            double[] mine = {world.rank() + 1};
            double[] sum = new double[1];
            double total = 0;
            for (int i = 0; i < 20; i++) {
                if (world.rank() == 1) {
                    Thread.sleep(10); // rank 0's wait reaches the sockets before the collective can end
                }
                world.iallreduce(mine, sum, Op.SUM).await();
                total += sum[0];
            }
            return total;
        });
        assertThat(out).containsExactly(60.0, 60.0);
    }
}
