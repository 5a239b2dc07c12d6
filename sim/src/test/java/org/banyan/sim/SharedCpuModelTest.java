package org.banyan.sim;

import org.banyan.core.tree.TopologySpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calibration's costs (docs/simulator.md, "Calibration against vcluster"): hosts sharing two
 * CPUs, a spawn's latency, a daemon's extra CPU per child, the CPU of dialing a routing link.
 * Checked against figures worked out by hand from the model.
 */
class SharedCpuModelTest {
    /** 100 ms per spawn, 100 ms per daemon start, nothing else worth counting. */
    static CostModel costs(int interleave, long spawnLatency, long daemonExtra, long dial) {
        return new CostModel(100_000, 1000, 100_000, 1, 0, 0, 0, 2, 0, spawnLatency, daemonExtra, interleave, dial);
    }

    static LaunchResult star(int hosts, CostModel c) {
        return new LaunchSimulation(hosts, 1, TopologySpec.parse("direct"), TopologySpec.parse("direct"), c, List.of()).run(3_600_000_000L);
    }

    static double ms(long micros) {
        return micros / 1000.0;
    }

    /**
     * Eight hosts, two CPUs, 200 ms of CPU each: 800 ms in all whatever the scheduling. Fully
     * shared, every spawn ends at 400 ms and every daemon at 800 ms together; first come, first
     * served, the first daemon is up after one spawn and one start.
     */
    @Test
    void processorSharingAgainstFirstComeFirstServed() {
        LaunchResult fair = star(8, costs(0, 0, 0, 0));
        assertThat(ms(fair.allUpMicros())).isCloseTo(800, org.assertj.core.data.Offset.offset(1.0));
        assertThat(ms(fair.firstUpMicros())).isCloseTo(800, org.assertj.core.data.Offset.offset(1.0));
        assertThat(ms(fair.medianDaemonUpMicros())).isCloseTo(800, org.assertj.core.data.Offset.offset(1.0));

        LaunchResult fifo = star(8, costs(2, 0, 0, 0));
        assertThat(ms(fifo.allUpMicros())).isCloseTo(800, org.assertj.core.data.Offset.offset(1.0));
        // Spawns 1 and 2 run first (100 ms); their starts queue behind spawns 3 to 8 (300 ms more).
        assertThat(ms(fifo.firstUpMicros())).isCloseTo(500, org.assertj.core.data.Offset.offset(1.0));
        assertThat(fifo.firstUpMicros()).isLessThan(fair.firstUpMicros());
    }

    @Test
    void aSpawnsLatencyDelaysWithoutTakingCpu() {
        LaunchResult lone = star(1, costs(0, 50_000, 0, 0));
        assertThat(ms(lone.firstUpMicros())).isCloseTo(250, org.assertj.core.data.Offset.offset(1.0));
        // With eight hosts the latencies overlap: 800 ms of CPU plus one latency, not eight.
        assertThat(ms(star(8, costs(0, 50_000, 0, 0)).allUpMicros()))
                .isCloseTo(850, org.assertj.core.data.Offset.offset(1.0));
    }

    /** Six of the eight daemons of a radix:2 tree are spawned by daemons: 6 × 30 ms more CPU, on two CPUs. */
    @Test
    void aDaemonsExtraSpawnCpuMakesTheTreeCostMoreThanTheStar() {
        long plain = new LaunchSimulation(8, 1, TopologySpec.parse("radix:2"), TopologySpec.parse("radix:2"), costs(2, 0, 0, 0), List.of())
                .run(3_600_000_000L).allUpMicros();
        long extra = new LaunchSimulation(8, 1, TopologySpec.parse("radix:2"), TopologySpec.parse("radix:2"), costs(2, 0, 30_000, 0), List.of())
                .run(3_600_000_000L).allUpMicros();
        assertThat(ms(extra - plain)).isBetween(6 * 30 / 2.0, 6 * 30.0);
    }

    /**
     * Routing links that are not spawn links cost their dialers CPU after phase 2: with a star
     * for routing over a radix:2 tree, the six daemons the head did not spawn each dial it, 200 ms
     * each on two CPUs. None when the trees agree.
     * (A job that ends first does not wait for them: they serve later traffic only.)
     */
    @Test
    void dialingRoutingLinksCostsCpuAfterPhaseTwo() {
        // Ranks that run 2 s: the job outlasts the dials.
        CostModel c = new CostModel(100_000, 1000, 100_000, 1, 0, 0, 2_000_000, 2, 0, 0, 0, 2, 200_000);
        LaunchResult same = new LaunchSimulation(8, 1, TopologySpec.parse("radix:2"), TopologySpec.parse("radix:2"), c, List.of()).run(3_600_000_000L);
        assertThat(same.routingLinksDialed()).isZero();
        LaunchResult other = new LaunchSimulation(8, 1, TopologySpec.parse("radix:2"), TopologySpec.parse("direct"), c, List.of()).run(3_600_000_000L);
        assertThat(other.exitStatus()).isZero();
        assertThat(other.routingLinksDialed()).isEqualTo(6);
        assertThat(ms(other.routingUpMicros() - other.allUpMicros())).isCloseTo(600, org.assertj.core.data.Offset.offset(5.0));
    }
}
