package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.banyan.pmix.PmixLibrary.INFO_SIZE;
import static org.banyan.pmix.PmixLibrary.INFO_VALUE_DATA;
import static org.banyan.pmix.PmixLibrary.INFO_VALUE_TYPE;
import static org.banyan.pmix.CCall.seg;
import static org.banyan.pmix.PmixLibrary.PMIX_STRING;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.banyan.core.job.AppContext;
import org.banyan.core.wire.OverlayMessage;

/**
 * PMIx spawn, connect and disconnect (MPI_Comm_spawn, and the connection Open MPI makes between
 * the parent and the children, or with MPI_Comm_connect/accept). A spawn is one request to the
 * head, which starts the job down the tree; a connect or disconnect is one collective at the
 * head over the daemons that host the participants, named by the sorted participants
 * ({@code namespace:rank}: the head knows every job's namespace, this server only those it
 * serves).
 *
 * <p>Layouts read here (PMIx 4.2.2, checked with {@code offsetof}): {@code pmix_app_t} (56
 * bytes: {@code cmd} at 0, {@code argv} at 8, {@code env} at 16, {@code cwd} at 24,
 * {@code maxprocs} an {@code int} at 32, {@code info} at 40, {@code ninfo} at 48), and
 * {@code pmix_info_t} as {@link PmixNames} reads it. The server module's {@code spawn},
 * {@code connect} and {@code disconnect} are at offsets 64, 72 and 80.
 */
final class PmixSpawnOps {
    private static final int APP_SIZE = 56;
    private static final int ERR_BAD_PARAM = -27;
    private static final int ERR_JOB_FAILED_TO_LAUNCH = -181;

    private enum Kind { SPAWN, CONNECT, FENCE }

    /** A request waiting for the head: what it is, and its callback. */
    private record Waiting(Kind kind, MemorySegment callback, MemorySegment callbackData) {}

    private static final Map<Integer, Waiting> BY_TOKEN = new ConcurrentHashMap<>();

    private PmixSpawnOps() {}

    // --- upcalls, on PMIx's progress thread ---------------------------------------------------

    /** The server module's entry {@code name} (spawn, connect, disconnect). */
    static MemorySegment callback(String name) throws ReflectiveOperationException {
        return CCall.callback(MethodHandles.lookup(), name);
    }

    /** {@code spawn(proc, job_info, ninfo, apps, napps, cbfunc, cbdata)} */
    private static long spawn(long proc, long jobInfo, long ninfo, long apps, long napps, long callback, long data, long u7) {
        return spawn(seg(proc), seg(jobInfo), ninfo, seg(apps), napps, seg(callback), seg(data));
    }

    /** {@code connect(procs, nprocs, info, ninfo, cbfunc, cbdata)} */
    private static long connect(long procs, long nprocs, long info, long ninfo, long callback, long data, long u6, long u7) {
        return connect(seg(procs), nprocs, seg(info), ninfo, seg(callback), seg(data));
    }

    /** {@code disconnect(procs, nprocs, info, ninfo, cbfunc, cbdata)} */
    private static long disconnect(long procs, long nprocs, long info, long ninfo, long callback, long data, long u6,
                                   long u7) {
        return disconnect(seg(procs), nprocs, seg(info), ninfo, seg(callback), seg(data));
    }

    static int spawn(MemorySegment proc, MemorySegment jobInfo, long ninfo, MemorySegment apps, long napps,
                     MemorySegment callback, MemorySegment data) {
        try {
            PmixServer s = PmixServer.instance();
            String nspace = PmixServer.nspaceOf(proc);
            int jobId = s == null ? -1 : s.jobIdOf(nspace);
            if (jobId < 0) {
                return PmixLibrary.ERR_NOT_FOUND;
            }
            if (napps < 1) {
                return ERR_BAD_PARAM;
            }
            List<AppContext> contexts = new ArrayList<>();
            java.util.Set<String> hosts = new java.util.LinkedHashSet<>();
            List<String> ignored = new ArrayList<>();
            MemorySegment job = jobInfo.reinterpret(INFO_SIZE * Math.max(0, ninfo));
            for (long i = 0; i < ninfo; i++) {
                unread(job.asSlice(i * INFO_SIZE, INFO_SIZE), JOB_KEYS_READ, ignored);
            }
            MemorySegment array = apps.reinterpret(APP_SIZE * napps);
            for (long i = 0; i < napps; i++) {
                contexts.add(app(array.asSlice(i * APP_SIZE, APP_SIZE), hosts, ignored));
            }
            if (!ignored.isEmpty()) { // MPI lets a library ignore info hints; Banyan says it does
                System.err.println("banyan: job " + jobId + "'s MPI_Comm_spawn asks for " + String.join(", ", ignored)
                        + ", which Banyan does not apply: the new job is placed as every spawned job is");
            }
            int token = PmixNames.NEXT.getAndIncrement();
            BY_TOKEN.put(token, new Waiting(Kind.SPAWN, callback, data));
            s.listenerOf(nspace).spawn(jobId, token, contexts, List.copyOf(hosts));
            return PmixLibrary.SUCCESS;
        } catch (Throwable t) {
            return ERR_BAD_PARAM;
        }
    }

    static int connect(MemorySegment procs, long nprocs, MemorySegment info, long ninfo, MemorySegment callback,
                       MemorySegment data) {
        return collective("connect", procs, nprocs, null, callback, data);
    }

    static int disconnect(MemorySegment procs, long nprocs, MemorySegment info, long ninfo, MemorySegment callback,
                          MemorySegment data) {
        return collective("disconnect", procs, nprocs, null, callback, data);
    }

    /**
     * A fence over ranks of several namespaces (Open MPI's MPI_Comm_disconnect fences the parent
     * and the children): the head's collective, each daemon's blob carried along and all of them
     * handed to every participating server, as a job's own fence does over the tree.
     */
    static int fence(MemorySegment procs, long nprocs, byte[] blob, MemorySegment callback, MemorySegment data) {
        return collective("fence", procs, nprocs, blob, callback, data);
    }

    private static int collective(String kind, MemorySegment procs, long nprocs, byte[] blob, MemorySegment callback,
                                  MemorySegment data) {
        try {
            PmixServer s = PmixServer.instance();
            if (s == null || nprocs < 1) {
                return ERR_BAD_PARAM;
            }
            MemorySegment array = procs.reinterpret(PmixLibrary.PROC_SIZE * nprocs);
            TreeSet<String> participants = new TreeSet<>();
            int anyJob = -1;
            PmixServer.Listener listener = null;
            for (long i = 0; i < nprocs; i++) {
                MemorySegment p = array.asSlice(i * PmixLibrary.PROC_SIZE, PmixLibrary.PROC_SIZE);
                String nspace = PmixServer.nspaceOf(p);
                int jobId = s.jobIdOf(nspace); // -1 for a job with no rank here (another DVM job's, say)
                participants.add(nspace + ":" + PmixServer.rankOf(p));
                if (listener == null && jobId >= 0) {
                    anyJob = jobId;
                    listener = s.listenerOf(nspace);
                }
            }
            if (listener == null) {
                return PmixLibrary.ERR_NOT_FOUND;
            }
            int token = PmixNames.NEXT.getAndIncrement();
            BY_TOKEN.put(token, new Waiting(blob == null ? Kind.CONNECT : Kind.FENCE, callback, data));
            listener.nameRequest(anyJob, token, OverlayMessage.NameRequest.CONNECT, kind + " " + String.join(",", participants),
                    blob == null ? "" : Base64.getEncoder().encodeToString(blob));
            return PmixLibrary.SUCCESS;
        } catch (Throwable t) {
            return ERR_BAD_PARAM;
        }
    }

    /**
     * One {@code pmix_app_t}: the command, its arguments after argv[0], its variables, directory
     * and count; the hosts its {@code pmix.host} (MPI_Info "host": names separated by commas)
     * names go to {@code hosts}.
     */
    private static AppContext app(MemorySegment app, java.util.Set<String> hosts, List<String> ignored) {
        String cmd = string(app.get(ADDRESS, 0));
        List<String> argv = strings(app.get(ADDRESS, 8));
        Map<String, String> env = new HashMap<>();
        for (String kv : strings(app.get(ADDRESS, 16))) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                env.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        String cwd = string(app.get(ADDRESS, 24));
        int maxprocs = app.get(JAVA_INT, 32);
        long ninfo = app.get(JAVA_LONG, 48);
        MemorySegment infos = app.get(ADDRESS, 40).reinterpret(INFO_SIZE * Math.max(0, ninfo));
        for (long i = 0; i < ninfo; i++) {
            MemorySegment one = infos.asSlice(i * INFO_SIZE, INFO_SIZE);
            String key = one.getString(0);
            unread(one, APP_KEYS_READ, ignored);
            if (one.get(JAVA_SHORT, INFO_VALUE_TYPE) != PMIX_STRING) {
                continue;
            }
            if ("pmix.wdir".equals(key)) {
                cwd = string(one.get(ADDRESS, INFO_VALUE_DATA));
            } else if ("pmix.host".equals(key)) {
                for (String h : string(one.get(ADDRESS, INFO_VALUE_DATA)).split(",")) {
                    if (!h.isBlank()) {
                        hosts.add(h.strip());
                    }
                }
            }
        }
        if (cmd == null && !argv.isEmpty()) {
            cmd = argv.getFirst();
        }
        List<String> args = argv.isEmpty() ? argv : argv.subList(1, argv.size());
        return new AppContext(cmd, args, Math.max(0, maxprocs), env, cwd);
    }

    /**
     * The job-level keys Open MPI's MPI_Comm_spawn sends that Banyan reads or need not: its
     * personality (sent with every spawn). Measured with Open MPI 4.1: with no MPI_Info only
     * these and the app's {@code pmix.wdir} arrive.
     */
    static final java.util.Set<String> JOB_KEYS_READ = java.util.Set.of("pmix.pers");
    /** The app-level keys read: the working directory and the hosts (MPI_Info "wdir" and "host"). */
    static final java.util.Set<String> APP_KEYS_READ = java.util.Set.of("pmix.wdir", "pmix.host");
    /** MPI_Info's names of the PMIx keys Open MPI makes of them, to say what the program asked for. */
    private static final Map<String, String> MPI_NAMES = Map.of("pmix.mapby", "map_by", "pmix.ppr", "npernode/ppr",
            "pmix.bindto", "bind_to", "pmix.rankby", "rank_by", "pmix.mapper", "mapper", "pmix.hostfile", "hostfile",
            "pmix.addhost", "add-host", "pmix.nonpmi", "ompi_non_mpi", "pmix.stdin", "ompi_stdin_target");

    /** Adds {@code info}'s key, as the program named it, with its value when a string, unless it is one of {@code read}. */
    private static void unread(MemorySegment info, java.util.Set<String> read, List<String> ignored) {
        String key = info.getString(0);
        if (read.contains(key)) {
            return;
        }
        String name = MPI_NAMES.getOrDefault(key, key);
        String value = info.get(JAVA_SHORT, INFO_VALUE_TYPE) == PMIX_STRING ? string(info.get(ADDRESS, INFO_VALUE_DATA)) : null;
        ignored.add(value == null ? name : name + "=" + value);
    }

    private static String string(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? null : p.reinterpret(Integer.MAX_VALUE).getString(0);
    }

    private static List<String> strings(MemorySegment p) {
        List<String> out = new ArrayList<>();
        if (p.equals(MemorySegment.NULL)) {
            return out;
        }
        MemorySegment array = p.reinterpret(Long.MAX_VALUE);
        for (long i = 0; ; i++) {
            MemorySegment s = array.get(ADDRESS, 8 * i);
            if (s.equals(MemorySegment.NULL)) {
                return out;
            }
            out.add(s.reinterpret(Integer.MAX_VALUE).getString(0));
        }
    }

    // --- answers, on the daemon's thread ----------------------------------------------------

    /**
     * The head's answer to a spawn ("jobId namespace" when ok) or a collective; false when the
     * token is not one of these.
     */
    static boolean reply(PmixLibrary lib, int token, boolean ok, String text) {
        Waiting w = BY_TOKEN.remove(token);
        if (w == null) {
            return false;
        }
        try {
            if (w.kind() == Kind.FENCE) {
                fenceDone(lib, w, ok, text);
            } else if (w.kind() == Kind.SPAWN) {
                if (!ok) {
                    PmixLibrary.spawnDone(w.callback(), ERR_JOB_FAILED_TO_LAUNCH, MemorySegment.NULL, w.callbackData());
                    return true;
                }
                // the server may keep the pointer past the callback: the name is the process's from here
                String nspace = text.substring(text.indexOf(' ') + 1);
                MemorySegment name = lib.malloc(PmixLibrary.NSPACE_SIZE);
                name.fill((byte) 0);
                name.setString(0, nspace);
                PmixLibrary.spawnDone(w.callback(), PmixLibrary.SUCCESS, name, w.callbackData());
            } else {
                PmixLibrary.opDone(w.callback(), ok ? PmixLibrary.SUCCESS : PmixLibrary.ERR_NOT_FOUND,
                        w.callbackData());
            }
        } catch (Throwable t) {
            System.err.println("banyand: cannot answer a PMIx " + w.kind().name().toLowerCase() + ": " + t);
        }
        return true;
    }

    /** Every daemon's blob (base64, separated by commas) to the server, as a job's fence gives them. */
    private static void fenceDone(PmixLibrary lib, Waiting w, boolean ok, String text) {
        List<byte[]> blobs = new ArrayList<>();
        if (ok && !text.isEmpty()) {
            for (String part : text.split(",")) {
                blobs.add(Base64.getDecoder().decode(part));
            }
        }
        PmixServer.completeFence(lib, w.callback(), w.callbackData(), ok ? PmixLibrary.SUCCESS : PmixLibrary.ERR_NOT_FOUND,
                blobs);
    }
}
