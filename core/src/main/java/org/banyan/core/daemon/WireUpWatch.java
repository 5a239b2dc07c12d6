package org.banyan.core.daemon;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.banyan.core.job.JobDescription;
import org.banyan.core.wire.OverlayMessage;

/**
 * How one job's local ranks wire up, as seen by their daemon: which protocol they speak (a job
 * served both ways follows the first its ranks use here) and which ranks never reached a
 * server. A rank of a job of more than one rank that has an MPI library loaded and ends without
 * having reached PMI or PMIx ran MPI on its own, a singleton; so does one that starts Open MPI's
 * singleton helper. Either is reported to the head, which fails the job: N singletons print
 * plausible output and compute the wrong thing.
 */
final class WireUpWatch {
    private final JobDescription job;
    private final DaemonOutbox out;
    /** Local ranks that reached the PMI or PMIx server. */
    private final Set<Integer> reached = new HashSet<>();
    /** The MPI library each local rank not yet reached was seen with. */
    private final Map<Integer, String> loaded = new HashMap<>();
    private final Set<Integer> reported = new HashSet<>();
    private boolean pmixSpoken;
    /** Local ranks whose PMIx client finalized. */
    private final Set<Integer> pmixFinalized = new HashSet<>();
    /** PMI connections that have not named their rank (yet): while there is one, no rank here is called a singleton. */
    private final Set<Integer> unnamedPmi = new HashSet<>();

    WireUpWatch(JobDescription job, DaemonOutbox out) {
        this.job = job;
        this.out = out;
    }

    /** Whether this daemon serves the job's ranks through PMIx: a PMIx-only job, or one whose ranks here spoke it. */
    boolean speaksPmix() {
        return job.pmix() && (!job.pmiToo() || pmixSpoken);
    }

    /** A local rank spoke PMIx; {@code rank} -1 when the request does not say which. */
    void pmix(int rank) {
        pmixSpoken = true;
        if (rank >= 0) {
            reach(rank);
        }
    }

    /** PMI connection {@code conn} spoke; {@code rank} null until it has said which rank it is. */
    void pmi(int conn, Integer rank) {
        if (rank == null) {
            unnamedPmi.add(conn);
        } else {
            unnamedPmi.remove(conn);
            reach(rank);
        }
    }

    private void reach(int rank) {
        loaded.remove(rank);
        if (reached.add(rank) && job.size() > 1) {
            out.emit(new DaemonAction.RankWiredUp(job.jobId(), rank));
        }
    }

    /** The daemon saw {@code library} loaded in local rank {@code rank} (or a process it started). */
    void mpiSeen(int rank, String library, boolean singletonDaemon) {
        if (job.size() < 2 || reached.contains(rank) || reported.contains(rank)) {
            return;
        }
        if (singletonDaemon) {
            report(rank, library, "it loaded " + library + ", started orted (the helper Open MPI starts for a singleton)");
        } else {
            loaded.put(rank, library);
        }
    }

    /** Local rank {@code rank}'s PMIx client finalized (PMIx_Finalize, in MPI_Finalize). */
    void pmixFinalized(int rank) {
        pmixFinalized.add(rank);
    }

    /**
     * Local rank {@code rank} ended with {@code status}: a singleton if it had MPI loaded and never
     * reached a server; left without finalizing if it reached one, finalized neither PMI ({@code
     * pmiFinalized}) nor PMIx, and exited 0 (a failing status fails the job already).
     */
    void ended(int rank, int status, boolean pmiFinalized) {
        String library = loaded.remove(rank);
        if (library != null && unnamedPmi.isEmpty() && !reached.contains(rank) && !reported.contains(rank)) {
            report(rank, library, "it loaded " + library + ", ended");
        } else if (status == 0 && job.size() > 1 && reached.contains(rank) && !pmiFinalized && !pmixFinalized.contains(rank)) {
            out.up(new OverlayMessage.RankUnfinalized(job.jobId(), rank));
        }
    }

    private void report(int rank, String library, String evidence) {
        reported.add(rank);
        out.up(new OverlayMessage.RankAlone(job.jobId(), rank, library, evidence));
    }
}
