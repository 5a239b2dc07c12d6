package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.banyan.pmix.CCall.seg;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PMIx's direct modex, both ends: the server's {@code direct_modex} upcall when one of its ranks
 * wants a remote rank's data (requests for one rank share one fetch, {@link PmixServer.Listener#modexRequest}),
 * answered by {@link #done}; and {@code PMIx_server_dmodex_request} when another daemon wants a
 * local rank's ({@link #fetchLocal}), answered through {@link PmixServer.Listener#modexData}.
 */
final class PmixModexOps {

    /** The server's requests waiting for a remote rank's data (callback, its data), by job and rank. */
    private static final Map<Long, List<MemorySegment[]>> WAITING = new ConcurrentHashMap<>();
    /** Local fetches in progress: who answers each token. */
    private static final Map<Integer, PmixServer.Listener> FETCHING = new ConcurrentHashMap<>();
    private static MemorySegment responseStub;

    private PmixModexOps() {}

    private static long key(int jobId, int rank) {
        return ((long) jobId << 32) | (rank & 0xFFFFFFFFL);
    }

    /** The server module's {@code direct_modex} entry. */
    static MemorySegment directModexCallback() throws ReflectiveOperationException {
        return CCall.callback(MethodHandles.lookup(), "directModex");
    }

    /** {@code direct_modex(proc, info, ninfo, cbfunc, cbdata)}, on PMIx's progress thread. */
    private static long directModex(long procAt, long info, long ninfo, long callbackAt, long dataAt, long u5, long u6,
                                    long u7) {
        MemorySegment proc = seg(procAt);
        MemorySegment callback = seg(callbackAt);
        MemorySegment data = seg(dataAt);
        try {
            PmixServer s = PmixServer.instance();
            String nspace = PmixServer.nspaceOf(proc);
            PmixServer.Listener listener = s == null ? null : s.listenerOf(nspace);
            if (listener == null) {
                return PmixLibrary.ERR_NOT_FOUND;
            }
            int jobId = s.jobIdOf(nspace);
            int rank = PmixServer.rankOf(proc);
            boolean first;
            synchronized (WAITING) {
                List<MemorySegment[]> waiting = WAITING.computeIfAbsent(key(jobId, rank), r -> new ArrayList<>());
                first = waiting.isEmpty();
                waiting.add(new MemorySegment[] {callback, data});
            }
            if (first) {
                listener.modexRequest(jobId, rank);
            }
            return PmixLibrary.SUCCESS;
        } catch (Throwable t) {
            return PmixLibrary.ERR_NOT_FOUND;
        }
    }

    /** A remote rank's data came (null: none): every waiting request for it is answered, each with its own copy. */
    static void done(PmixLibrary lib, int jobId, int rank, byte[] blob) {
        List<MemorySegment[]> waiters;
        synchronized (WAITING) {
            waiters = WAITING.remove(key(jobId, rank));
        }
        if (waiters == null) {
            return;
        }
        for (MemorySegment[] w : waiters) {
            try {
                if (blob == null) {
                    PmixLibrary.modexDone(w[0], PmixLibrary.ERR_NOT_FOUND, MemorySegment.NULL, 0L, w[1], MemorySegment.NULL,
                            MemorySegment.NULL);
                    continue;
                }
                long size = blob.length;
                MemorySegment copy = lib.malloc(Math.max(1L, size));
                MemorySegment.copy(blob, 0, copy, JAVA_BYTE, 0, blob.length);
                MemorySegment release = lib.free; // the server frees the copy once it has it
                PmixLibrary.modexDone(w[0], PmixLibrary.SUCCESS, copy, size, w[1], release, copy);
            } catch (Throwable t) {
                System.err.println("banyand: cannot answer a PMIx direct modex of job " + jobId + ": " + t);
            }
        }
    }

    /** Asks the server for a local rank's data on another daemon's behalf; false when it cannot be asked. */
    static boolean fetchLocal(PmixLibrary lib, int jobId, String nspace, PmixServer.Listener listener, int rank, int token) {
        FETCHING.put(token, listener);
        try (Arena a = Arena.ofConfined()) {
            int rc = lib.dmodexRequest(PmixServer.proc(a, nspace, rank), responseStub(), MemorySegment.ofAddress(token));
            if (rc == PmixLibrary.SUCCESS) {
                return true;
            }
        } catch (Throwable t) {
            // answered as "none" by the caller
        }
        FETCHING.remove(token);
        return false;
    }

    static synchronized MemorySegment responseStub() throws ReflectiveOperationException {
        if (responseStub == null) {
            responseStub = CCall.callback(MethodHandles.lookup(), "response");
        }
        return responseStub;
    }

    /** The server's answer to {@link #fetchLocal}, on its progress thread: the token rode as the callback's data pointer. */
    private static long response(long statusBits, long blobAt, long size, long tokenAt, long u4, long u5, long u6, long u7) {
        int status = (int) statusBits;
        MemorySegment blob = seg(blobAt);
        MemorySegment token = seg(tokenAt);
        try {
            PmixServer.Listener listener = FETCHING.remove((int) token.address());
            if (listener != null) {
                byte[] bytes = status != PmixLibrary.SUCCESS || blob.equals(MemorySegment.NULL) ? null
                        : size == 0 ? new byte[0] : blob.reinterpret(size).toArray(JAVA_BYTE);
                listener.modexData((int) token.address(), bytes);
            }
        } catch (Throwable t) {
            // never let an exception reach PMIx's thread
        }
        return 0; // pmix_dmodex_response_fn_t returns nothing
    }
}
