package org.banyan.rm.workload.lublin;

/**
 * The model's parameters for one class of jobs (batch or interactive), as Lublin and Feitelson
 * published them.
 *
 * @param serialProb  the share of serial (one-node) jobs
 * @param pow2Prob    the share of jobs whose size is a power of two
 * @param uLow        log2 of the smallest parallel size (two-stage uniform's low end)
 * @param uMed        where the two-stage uniform's stages meet
 * @param uHigh       log2 of the largest size
 * @param uProb       the first stage's share
 * @param a1          run time: the first gamma's shape (of the log of seconds)
 * @param b1          ... its scale
 * @param a2          the second gamma's shape
 * @param b2          ... its scale
 * @param pa          the first gamma's share is pa × nodes + pb (clamped to [0, 1])
 * @param pb          ... its intercept
 * @param aarr        inter-arrival at rush hours: gamma shape of the log of seconds (already × ARAR)
 * @param barr        ... its scale
 * @param anum        jobs per half hour of the day: gamma shape of the daily cycle
 * @param bnum        ... its scale
 */
public record JobClass(double serialProb, double pow2Prob, double uLow, double uMed, double uHigh, double uProb,
                       double a1, double b1, double a2, double b2, double pa, double pb,
                       double aarr, double barr, double anum, double bnum) {
    /** Batch jobs, for a machine of 128 nodes (uHigh 7). */
    public static final JobClass BATCH = new JobClass(0.2927, 0.6686, 1.2, 5, 7, 0.875,
            6.57, 0.823, 639.1, 0.0156, -0.003, 0.6986, 6.0415 * 1.0519, 0.8531, 6.1271, 5.2740);
    /** Interactive jobs, for the same machine (its largest 2^5.5, about 45 nodes). */
    public static final JobClass INTERACTIVE = new JobClass(0.1541, 0.625, 1, 3, 5.5, 0.705,
            3.8351, 0.6605, 7.073, 0.6856, -0.0118, 0.9156, 6.5510 * 0.9797, 0.6621, 8.9186, 3.6680);

    /**
     * The same class on a machine of {@code nodes} nodes: the sizes' upper points moved by
     * log2(nodes / 128), as the authors advise (uHigh is log2 of the largest job; uMed keeps its
     * distance below it); everything else as published. 128 gives the published values.
     */
    public JobClass onNodes(int nodes) {
        double shift = Math.log(nodes) / Math.log(2) - 7;
        if (shift == 0) {
            return this;
        }
        double high = uHigh + shift;
        double med = Math.max(uLow, uMed + shift);
        return new JobClass(serialProb, pow2Prob, Math.min(uLow, med), med, Math.max(med, high), uProb,
                a1, b1, a2, b2, pa, pb, aarr, barr, anum, bnum);
    }
}
