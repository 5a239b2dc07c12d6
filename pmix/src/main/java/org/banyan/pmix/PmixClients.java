package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's local ranks as its clients: each registered ({@code PMIx_server_register_client})
 * and given the variables that lead it to this server ({@code PMIx_server_setup_fork}).
 *
 * <p>Registration is handed to PMIx's progress thread without waiting for it: waiting (the call
 * without a callback) took 0.26-0.29 ms a rank at 256 ranks on two busy cores, one rank at a
 * time, on the path of every rank's start. libpmix copies the rank's name before the call
 * returns, and queues the registration on its progress thread before the rank exists, so it is
 * done before the rank can connect (the connection is handled on that same thread, later).
 * {@code setup_fork} does not need it done: it reads the namespace, registered before. A
 * registration that fails is said on standard error; its rank then fails in its own PMIx
 * initialisation.
 */
final class PmixClients {
    private final PmixLibrary lib;
    private final MemorySegment registered;
    /** PMIx's status texts, for the callback (which has no server at hand). */
    private static volatile PmixLibrary forMessages;

    PmixClients(PmixLibrary lib) {
        this.lib = lib;
        forMessages = lib;
        try {
            registered = CCall.callback(MethodHandles.lookup(), "registered");
        } catch (ReflectiveOperationException e) {
            throw new PmixUnavailableException("cannot make the registration callback: " + e);
        }
    }

    /**
     * Registers one local rank and returns the variables it needs to reach this server
     * ({@code PMIX_NAMESPACE}, {@code PMIX_RANK}, {@code PMIX_SERVER_URI*}, ...).
     */
    synchronized Map<String, String> environment(String nspace, int rank) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment proc = PmixServer.proc(a, nspace, rank);
            int rc = lib.registerClient(proc, lib.getuid(), lib.getgid(), registered, rank);
            check(rc, "PMIx_server_register_client " + nspace + ":" + rank);
            // setup_fork reallocs the array it is given: it must come from malloc
            MemorySegment env = lib.malloc(8);
            env.set(ADDRESS, 0, MemorySegment.NULL);
            MemorySegment envp = a.allocate(ADDRESS);
            envp.set(ADDRESS, 0, env);
            check(lib.setupFork(proc, envp), "PMIx_server_setup_fork " + nspace + ":" + rank);
            Map<String, String> out = new LinkedHashMap<>();
            MemorySegment array = envp.get(ADDRESS, 0).reinterpret(Long.MAX_VALUE);
            for (long i = 0; ; i++) {
                MemorySegment entry = array.get(ADDRESS, 8 * i);
                if (entry.equals(MemorySegment.NULL)) {
                    break;
                }
                String kv = entry.reinterpret(Integer.MAX_VALUE).getString(0);
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    out.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
                lib.free(entry);
            }
            lib.free(array); // setup_fork's strings and array, malloc'd: a DVM serves ranks for days
            return out;
        } catch (PmixUnavailableException e) {
            throw e;
        } catch (Throwable t) {
            throw new PmixUnavailableException("PMIx client setup failed: " + t);
        }
    }

    private void check(int rc, String what) {
        if (rc != PmixLibrary.SUCCESS && rc != PmixLibrary.OPERATION_SUCCEEDED) {
            throw new PmixUnavailableException(what + ": " + lib.error(rc));
        }
    }

    /** {@code pmix_op_cbfunc_t(status, cbdata)} of a registration; cbdata is the rank. */
    private static long registered(long statusBits, long rank, long u2, long u3, long u4, long u5, long u6, long u7) {
        try {
            int status = (int) statusBits;
            if (status != PmixLibrary.SUCCESS && status != PmixLibrary.OPERATION_SUCCEEDED) {
                PmixLibrary l = forMessages;
                System.err.println("banyand: PMIx could not register rank " + rank + " as its client: "
                        + (l == null ? "status " + status : l.error(status)));
            }
        } catch (Throwable t) {
            // never let an exception reach PMIx's thread
        }
        return 0;
    }
}
