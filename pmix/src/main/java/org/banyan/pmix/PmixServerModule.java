package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.banyan.pmix.CCall.seg;
import static org.banyan.pmix.PmixServer.nspaceOf;
import static org.banyan.pmix.PmixServer.rankOf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;

/**
 * The server module PMIx is started with: the functions it calls, on its progress thread, when a
 * client connects, finalizes, aborts or enters a fence, and when it needs what another daemon
 * holds ({@link PmixModexOps}), a name ({@link PmixNames}) or a spawn ({@link PmixSpawnOps}).
 * Each finds the job by the namespace it is given and tells the job's {@link PmixServer.Listener};
 * each returns at once and catches everything (an exception reaching PMIx's thread ends the JVM).
 */
final class PmixServerModule {
    private static MemorySegment module;

    private PmixServerModule() {}

    /** The module (its function pointers), made once for the process. */
    static synchronized MemorySegment get() throws ReflectiveOperationException {
        if (module != null) {
            return module;
        }
        MemorySegment m = Arena.global().allocate(PmixLibrary.MODULE_SIZE, 8);
        MethodHandles.Lookup here = MethodHandles.lookup();
        m.set(ADDRESS, 0, CCall.callback(here, "clientConnected"));
        m.set(ADDRESS, 8, CCall.callback(here, "clientFinalized"));
        m.set(ADDRESS, 16, CCall.callback(here, "abort"));
        m.set(ADDRESS, 24, CCall.callback(here, "fenceNb"));
        m.set(ADDRESS, 32, PmixModexOps.directModexCallback());
        m.set(ADDRESS, 40, PmixNames.callback("publish"));
        m.set(ADDRESS, 48, PmixNames.callback("lookup"));
        m.set(ADDRESS, 56, PmixNames.callback("unpublish"));
        m.set(ADDRESS, 64, PmixSpawnOps.callback("spawn"));
        m.set(ADDRESS, 72, PmixSpawnOps.callback("connect"));
        m.set(ADDRESS, 80, PmixSpawnOps.callback("disconnect"));
        module = m;
        return m;
    }

    /** Completes an operation whose callback PMIx gave (4.2.2 gives none for client_connected). */
    private static int completed(MemorySegment callback, MemorySegment data) {
        if (callback.equals(MemorySegment.NULL)) {
            return PmixLibrary.OPERATION_SUCCEEDED;
        }
        try {
            PmixLibrary.opDone(callback, PmixLibrary.SUCCESS, data);
            return PmixLibrary.SUCCESS;
        } catch (Throwable t) {
            return PmixLibrary.OPERATION_SUCCEEDED;
        }
    }

    /** {@code client_connected(proc, server_object, cbfunc, cbdata)} */
    private static long clientConnected(long procAt, long object, long callbackAt, long dataAt, long u4, long u5, long u6,
                                        long u7) {
        MemorySegment proc = seg(procAt);
        MemorySegment callback = seg(callbackAt);
        MemorySegment data = seg(dataAt);
        try {
            PmixServer s = PmixServer.instance();
            PmixServer.Job job = s == null ? null : s.job(nspaceOf(proc));
            if (job != null) {
                job.listener.connected(job.jobId, rankOf(proc));
            }
        } catch (Throwable t) {
            // never let an exception reach PMIx's thread
        }
        return completed(callback, data);
    }

    /** {@code client_finalized(proc, server_object, cbfunc, cbdata)} */
    private static long clientFinalized(long procAt, long object, long callback, long data, long u4, long u5, long u6,
                                        long u7) {
        try { // posted before the client hears back, so before its exit is seen
            MemorySegment proc = seg(procAt);
            PmixServer s = PmixServer.instance();
            PmixServer.Job job = s == null ? null : s.job(nspaceOf(proc));
            if (job != null) {
                job.listener.finalized(job.jobId, rankOf(proc));
            }
        } catch (Throwable t) {
            // never let an exception reach PMIx's thread
        }
        return completed(seg(callback), seg(data));
    }

    /** {@code abort(proc, server_object, status, msg, procs, nprocs, cbfunc, cbdata)} */
    private static long abort(long procAt, long object, long statusBits, long messageAt, long procs, long nprocs,
                              long callbackAt, long dataAt) {
        MemorySegment proc = seg(procAt);
        int status = (int) statusBits;
        MemorySegment message = seg(messageAt);
        MemorySegment callback = seg(callbackAt);
        MemorySegment data = seg(dataAt);
        try {
            PmixServer s = PmixServer.instance();
            PmixServer.Job job = s == null ? null : s.job(nspaceOf(proc));
            if (job != null) {
                String text = message.equals(MemorySegment.NULL) ? "" : message.reinterpret(Integer.MAX_VALUE).getString(0);
                job.listener.abort(job.jobId, rankOf(proc), status, text);
            }
        } catch (Throwable t) {
            // never let an exception reach PMIx's thread
        }
        return completed(callback, data);
    }

    /** {@code fence_nb(procs, nprocs, info, ninfo, data, ndata, cbfunc, cbdata)} */
    private static long fenceNb(long procsAt, long nprocs, long info, long ninfo, long blobAt, long size, long callbackAt,
                                long dataAt) {
        MemorySegment procs = seg(procsAt);
        MemorySegment blob = seg(blobAt);
        MemorySegment callback = seg(callbackAt);
        MemorySegment data = seg(dataAt);
        try {
            PmixServer s = PmixServer.instance();
            if (s == null || nprocs < 1) {
                return PmixLibrary.ERR_NOT_SUPPORTED;
            }
            PmixServer.Job job = s.job(nspaceOf(procs));
            if (job == null) {
                return PmixLibrary.ERR_NOT_SUPPORTED;
            }
            byte[] bytes = size == 0 ? new byte[0] : blob.reinterpret(size).toArray(JAVA_BYTE);
            MemorySegment all = procs.reinterpret(PmixLibrary.PROC_SIZE * nprocs);
            for (long i = 1; i < nprocs; i++) {
                if (!job.nspace.equals(nspaceOf(all.asSlice(i * PmixLibrary.PROC_SIZE)))) {
                    return PmixSpawnOps.fence(procs, nprocs, bytes, callback, data);
                }
            }
            s.holdFence(job, callback, data);
            job.listener.fence(job.jobId, bytes);
            return PmixLibrary.SUCCESS;
        } catch (Throwable t) {
            return PmixLibrary.ERR_NOT_SUPPORTED;
        }
    }
}
