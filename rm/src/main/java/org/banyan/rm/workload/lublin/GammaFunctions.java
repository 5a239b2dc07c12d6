package org.banyan.rm.workload.lublin;

/**
 * What the model needs of the gamma distribution: variates drawn from uniform numbers in a fixed
 * order (Jain's methods: a sum of exponentials for the integer part of the shape, a beta-times-
 * exponential for the rest), and the cumulative distribution (the regularised incomplete gamma
 * function, by its series below shape + 1 and its continued fraction above, as Numerical Recipes
 * computes it), with the reference program's iteration bound and tolerance.
 */
final class GammaFunctions {
    static final int ITERATIONS = 1000;
    static final double TOLERANCE = 1e-10;

    private GammaFunctions() {}

    /** gamma(shape, scale) from {@code u}'s numbers. */
    static double variate(double shape, double scale, Drand48 u) {
        long whole = (long) shape;
        double value = 0;
        if (shape >= 1) {
            double logs = 0;
            for (long i = 0; i < whole; i++) {
                logs += Math.log(u.next());
            }
            value += -logs * scale;
        }
        double rest = shape - whole;
        if (rest > 0) {
            double b = betaBelowOne(rest, 1 - rest, u);
            double e = -Math.log(u.next());
            value += scale * b * e;
        }
        return value;
    }

    /** beta(a, b) for a, b in (0, 1), by rejection (Jöhnk). */
    private static double betaBelowOne(double a, double b, Drand48 u) {
        while (true) {
            double u1 = u.next();
            double u2 = u.next();
            double x = Math.pow(u1, 1 / a);
            double y = Math.pow(u2, 1 / b);
            if (x + y <= 1) {
                return x / (x + y);
            }
        }
    }

    /** P(X &lt;= x) for X ~ gamma(shape, scale); -1 when the iteration does not settle. */
    static double cdf(double x, double shape, double scale) {
        double z = x / scale;
        return z < shape + 1 ? series(z, shape) : 1 - continuedFraction(z, shape);
    }

    private static double series(double x, double a) {
        double term = 1 / a;
        double sum = term;
        double n = a;
        for (int i = 0; i < ITERATIONS; i++) {
            n++;
            term *= x / n;
            sum += term;
            if (term < sum * TOLERANCE) {
                return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
            }
        }
        return -1;
    }

    /** 1 - P, by the Lentz-free continued fraction of Numerical Recipes' first edition; 2 when it does not settle. */
    private static double continuedFraction(double x, double a) {
        double previous = 0;
        double a0 = 1;
        double a1 = x;
        double b0 = 0;
        double b1 = 1;
        double factor = 1;
        for (int i = 1; i <= ITERATIONS; i++) {
            double an = i - a;
            a0 = (a1 + a0 * an) * factor;
            b0 = (b1 + b0 * an) * factor;
            double anf = i * factor;
            a1 = x * a0 + anf * a1;
            b1 = x * b0 + anf * b1;
            if (a1 != 0.0) {
                factor = 1 / a1;
                double g = b1 * factor;
                if (Math.abs((g - previous) / g) < TOLERANCE) {
                    return g * Math.exp(-x + a * Math.log(x) - logGamma(a));
                }
                previous = g;
            }
        }
        return 2;
    }

    /**
     * ln Γ(a) for a &gt; 0: moved up past 15 by Γ(a) = Γ(a + k) / (a (a+1) ... (a+k-1)), then
     * Stirling's series to the term in a^-15, good to about an ulp there.
     */
    static double logGamma(double a) {
        double shift = 0;
        double z = a;
        double product = 1;
        while (z < 15) {
            product *= z;
            z++;
        }
        shift = Math.log(product);
        double inv = 1 / z;
        double inv2 = inv * inv;
        double series = inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 * (1.0 / 1680
                - inv2 * (1.0 / 1188 - inv2 * (691.0 / 360360 - inv2 * (1.0 / 156 - inv2 * 3617.0 / 122400)))))));
        return (z - 0.5) * Math.log(z) - z + 0.5 * Math.log(2 * Math.PI) + series - shift;
    }
}
