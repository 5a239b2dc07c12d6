package org.banyan.topo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The kinds of cores of a hybrid processor (hwloc's CPU kinds): a laptop's performance and
 * efficiency cores, an ARM big.LITTLE pair. Each CPU (by OS index) has its kind's rank, 0 the
 * most energy-efficient and higher ranks more performant, as hwloc orders kinds by efficiency.
 * A machine of one kind, or whose kinds cannot be told apart, has ranks of 0 only.
 *
 * <p>Kinds are ranked by the first property that every kind has and that differs between them,
 * in this order (as hwloc does): an efficiency forced by the XML ({@code forced_efficiency}),
 * the core type ({@code CoreType}: {@code IntelAtom} below {@code IntelCore}), the capacity
 * Linux gives the scheduler ({@code cpu_capacity}, hwloc's {@code LinuxCapacity}), the base and
 * then the maximum frequency.
 */
public record CpuKinds(Map<Integer, Integer> rankOfCpu, int kinds) {
    /** No kinds known: every CPU of rank 0. */
    public static final CpuKinds NONE = new CpuKinds(Map.of(), 1);

    /** The properties of one kind, as hwloc records them; NaN: not known. */
    public record Kind(int[] cpus, double forcedEfficiency, String coreType, double linuxCapacity, double frequencyBaseMhz,
                       double frequencyMaxMhz) {}

    public CpuKinds {
        rankOfCpu = Map.copyOf(rankOfCpu);
    }

    /** The rank of CPU {@code cpu}'s kind (0 when not known). */
    public int rankOf(int cpu) {
        return rankOfCpu.getOrDefault(cpu, 0);
    }

    /** Whether there are cores of more than one kind. */
    public boolean hybrid() {
        return kinds > 1;
    }

    /** Ranks {@code kinds} by the first property that all have and that differs between them. */
    public static CpuKinds ranked(List<Kind> kinds) {
        if (kinds.size() < 2) {
            return NONE;
        }
        List<java.util.function.ToDoubleFunction<Kind>> properties = List.of(Kind::forcedEfficiency, CpuKinds::coreTypeScore,
                Kind::linuxCapacity, Kind::frequencyBaseMhz, Kind::frequencyMaxMhz);
        for (var property : properties) {
            TreeSet<Double> values = new TreeSet<>();
            boolean all = true;
            for (Kind k : kinds) {
                double v = property.applyAsDouble(k);
                all &= !Double.isNaN(v);
                values.add(v);
            }
            if (all && values.size() > 1) {
                List<Double> order = new ArrayList<>(values);
                Map<Integer, Integer> ranks = new HashMap<>();
                for (Kind k : kinds) {
                    int rank = order.indexOf(property.applyAsDouble(k));
                    for (int cpu : k.cpus()) {
                        ranks.put(cpu, rank);
                    }
                }
                return new CpuKinds(ranks, order.size());
            }
        }
        return NONE;
    }

    /** hwloc's x86 core types: Atom cores are the efficient ones; NaN for any other name. */
    private static double coreTypeScore(Kind k) {
        if (k.coreType() == null) {
            return Double.NaN;
        }
        return switch (k.coreType()) {
            case "IntelAtom" -> 0;
            case "IntelCore" -> 1;
            default -> Double.NaN;
        };
    }
}
