package org.banyan.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded random faults, the same for a given seed wherever they are drawn (tests, the CLI). */
public final class FaultPlan {
    private FaultPlan() {}

    /**
     * Up to {@code maxFaults} faults among {@code hosts} daemons: crashes at a random time within
     * {@code horizonMicros}, spawn failures, slow hosts, broken links, hosts gone silent, slow links.
     */
    public static List<Fault> random(long seed, int hosts, int maxFaults, long horizonMicros) {
        SplittableRandom rng = new SplittableRandom(seed);
        int n = rng.nextInt(maxFaults + 1);
        List<Fault> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int d = rng.nextInt(hosts);
            switch (rng.nextInt(6)) {
                case 0 -> out.add(new Fault.Crash(d, rng.nextLong(horizonMicros)));
                case 1 -> out.add(new Fault.SpawnFailure(d));
                case 2 -> out.add(new Fault.SlowHost(d, 2 + rng.nextInt(8)));
                case 3 -> out.add(new Fault.LinkBreak(d, rng.nextLong(horizonMicros)));
                case 4 -> out.add(new Fault.Silent(d, rng.nextLong(horizonMicros)));
                default -> out.add(new Fault.SlowLink(d, 1000L * (1 + rng.nextInt(500))));
            }
        }
        return out;
    }
}
