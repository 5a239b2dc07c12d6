package org.banyan.core.pmix;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Names the PMIx namespaces of the jobs a head starts: {@code banyan.PID.NONCE.JOB}, unique
 * among the jobs a host may run at once (Open MPI derives its job id, and the names of its
 * shared files, from it), and the same on every daemon since the head names it.
 */
public final class PmixNamespaces {
    private static final String PREFIX = "banyan." + ProcessHandle.current().pid() + "."
            + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24)) + ".";

    private PmixNamespaces() {}

    public static String of(int jobId) {
        return PREFIX + jobId;
    }

    /** {@code job} served {@code how}, named for PMIx when that is among the ways. */
    public static org.banyan.core.job.JobDescription name(org.banyan.core.job.JobDescription job,
                                                          org.banyan.core.job.WireUp how) {
        return job.served(how, of(job.jobId()));
    }
}
