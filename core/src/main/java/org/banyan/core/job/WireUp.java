package org.banyan.core.job;

/**
 * How a job's ranks find each other: the protocol their MPI library speaks to its daemon.
 * {@link #BOTH} is for programs whose MPI cannot be known before they start (Python with mpi4py,
 * a shell script or {@code env} in front of the real program, a static binary): each daemon
 * serves PMI-1/PMI-2 and PMIx side by side and follows whichever its ranks use.
 */
public enum WireUp {
    /** PMI-1/PMI-2 only (the MPICH family). */
    PMI,
    /** PMIx only (Open MPI, OpenSHMEM, programs linked against libpmix). */
    PMIX,
    /** Both, side by side. */
    BOTH
}
