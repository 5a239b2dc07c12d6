package org.banyan.rm.workload.lublin;

/**
 * POSIX {@code drand48}: the 48-bit linear congruential generator x' = (0x5DEECE66D x + 0xB) mod
 * 2^48, each draw x' / 2^48 (all 48 bits in the double's mantissa, as glibc builds it), seeded as
 * {@code srand48(s)} seeds it: x = (s mod 2^32) &lt;&lt; 16 | 0x330E. java.util.Random steps the
 * same generator but scrambles its seed and returns other bits, so it cannot stand in here: the
 * Lublin–Feitelson reference program draws every number this way, and so must a generator that
 * reproduces its output.
 */
public final class Drand48 {
    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long INCREMENT = 0xBL;
    private static final long MASK = (1L << 48) - 1;
    private static final double SCALE = 0x1.0p-48;

    private long x;

    public Drand48(long seed) {
        x = ((seed & 0xFFFFFFFFL) << 16) | 0x330EL; // glibc keeps the low 32 bits of a 64-bit long
    }

    /** A number in [0, 1). */
    public double next() {
        x = (MULTIPLIER * x + INCREMENT) & MASK;
        return x * SCALE;
    }
}
