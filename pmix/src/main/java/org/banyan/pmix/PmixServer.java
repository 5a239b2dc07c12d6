package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.banyan.core.pmix.PmixInfo;
import org.banyan.core.pmix.PmixRegistration;

/**
 * This process's PMIx server (libpmix allows one per process), which the daemon drives for its
 * PMIx jobs: namespaces registered from {@link PmixRegistration}s, each rank's environment from
 * {@code PMIx_server_setup_fork}, and the server's upcalls turned into calls on the job's
 * {@link Listener}.
 *
 * <p>Upcalls arrive on PMIx's progress thread and must return at once (a blocking PMIx call
 * there deadlocks); a Java exception escaping one would end the JVM, so each catches everything.
 * A fence's upcall only hands the local contribution over; the callback that releases the local
 * ranks is called later, from the daemon's thread, by {@link #fenceDone}. Client connection,
 * finalization and abort are completed inside the upcall.
 */
public final class PmixServer {
    /**
     * What the server needs in the C environment before libpmix starts, unless the user set it.
     * {@code PMIX_MCA_psec=native}: PMIx's munge security component, when munge is installed but
     * munged is not running, retries its socket for 2.3 s before giving way to "native" (uid/gid
     * over the local socket), which is what a daemon's own ranks need; PMIx reads its MCA
     * parameters from the process environment. {@code HWLOC_COMPONENTS=-gl}: hwloc's "gl" plugin
     * (libhwloc-plugins) looks for NVIDIA GPUs through X servers by opening displays :0 to :9 in
     * turn, 20 refused connections and ~30 ms of the server's start on a machine without X, for
     * OS devices no MPI library reads. The banyan command sets both before its JVMs start; a
     * daemon started otherwise sets them first thing in its main, while no other thread reads the
     * environment.
     */
    public static final Map<String, String> NEEDED_ENVIRONMENT = Map.of("PMIX_MCA_psec", "native", "HWLOC_COMPONENTS", "-gl");

    /**
     * Sets what of {@link #NEEDED_ENVIRONMENT} is not set, under CCall's lock; glibc's setenv may
     * still move the environment under the JDK's own getenv on another thread (an EPoll selector's
     * class init crashed a JVM so), so a daemon calls this first thing in its main. Ranks do not
     * inherit what it sets: their environment is the process's initial one (/proc/self/environ).
     */
    public static void setNeededEnvironment() {
        for (Map.Entry<String, String> e : NEEDED_ENVIRONMENT.entrySet()) {
            if (System.getenv(e.getKey()) == null) {
                CCall.setenv(e.getKey(), e.getValue());
            }
        }
    }

    /** What the server's upcalls ask of the daemon, per job. */
    public interface Listener {
        /** A local rank connected to the server (it wires up through PMIx). */
        default void connected(int jobId, int rank) {}

        /** A local rank finalized (PMIx_Finalize: MPI_Finalize, shmem_finalize). */
        default void finalized(int jobId, int rank) {}

        /** Every local rank entered a fence; {@code blob} is their contribution (possibly empty). */
        void fence(int jobId, byte[] blob);

        /** A rank called abort. */
        void abort(int jobId, int rank, int status, String message);

        /** The server wants a remote rank's data (direct modex): answer with {@link #modexDone}. */
        void modexRequest(int jobId, int rank);

        /** The server packed a local rank's data for {@link #fetchLocal}'s {@code token} (null: none). */
        void modexData(int token, byte[] blob);

        /**
         * A rank publishes, unpublishes or looks up a name (op 0, 1, 2, as the head's name service
         * counts them; {@code value} empty but for a publish): answer with {@link #nameReply}.
         */
        void nameRequest(int jobId, int token, int op, String name, String value);

        /**
         * A rank spawns a job of {@code apps} (MPI_Comm_spawn) on the {@code hosts} its
         * applications name (empty: anywhere): answer with {@link #nameReply}.
         */
        void spawn(int jobId, int token, List<org.banyan.core.job.AppContext> apps, List<String> hosts);
    }

    private static volatile PmixServer instance;

    private final PmixLibrary lib;
    private final Path tmpdir;
    private final PmixClients clients;
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();
    private final Map<Integer, Job> byId = new ConcurrentHashMap<>();

    /** A registered namespace, and the callback of its fence in progress here. */
    static final class Job {
        final int jobId;
        final String nspace;
        final Listener listener;
        MemorySegment fenceCallback;
        MemorySegment fenceCallbackData;

        Job(int jobId, String nspace, Listener listener) {
            this.jobId = jobId;
            this.nspace = nspace;
            this.listener = listener;
        }
    }

    private PmixServer(PmixLibrary lib, Path tmpdir) {
        this.lib = lib;
        this.tmpdir = tmpdir;
        this.clients = new PmixClients(lib);
    }

    /** Whether libpmix is installed here. */
    public static boolean installed() {
        return PmixLibrary.installed();
    }

    /**
     * Starts the process's server on a background thread, while the launch goes on: its start
     * (50-100 ms of a fresh JVM here: binding libpmix's functions
     * and making the upcall stubs ~65 ms, {@code PMIx_server_init} ~20 ms) is then off the path to the ranks' start.
     * What goes wrong is reported by the {@link #start} that needs the server. The caller ends it
     * with {@link #shutdown}, used or not.
     */
    public static void startSoon(Path parent) {
        Thread.ofPlatform().daemon().name("pmix-start").start(() -> {
            try {
                start(parent);
            } catch (RuntimeException e) {
                // said by the start that needs it
            }
        });
    }

    /**
     * The process's server, started on first use with its rendezvous files in a new directory
     * under {@code parent}.
     *
     * @throws PmixUnavailableException when libpmix is missing or its server does not start
     */
    public static synchronized PmixServer start(Path parent) {
        if (instance != null) {
            return instance;
        }
        PmixLibrary lib = PmixLibrary.load();
        Path dir;
        try {
            // named after this process, so that a daemon's guard sweeps it once the process is gone
            dir = ownDirectory(parent, "banyan-pmix-" + ProcessHandle.current().pid() + "-");
        } catch (IOException e) {
            throw new PmixUnavailableException("cannot create the PMIx server's directory in " + parent + ": " + e.getMessage());
        }
        PmixDirectory.made(dir); // owned by the daemon's guard before anything is in it
        PmixServer server = new PmixServer(lib, dir);
        int rc;
        try (Arena a = Arena.ofConfined()) {
            // The banyan command sets both variables before its JVM starts, and a daemon over ssh
            // first thing in its main (a setenv here races with other threads reading environ);
            // this is for JVMs started otherwise (tests, programs that embed the server).
            setNeededEnvironment();
            // PMIX_SERVER_SHARE_TOPOLOGY: the hwloc topology the server discovers anyway goes to
            // its clients (shared memory, and XML in the job's data), as mpirun's daemon hands
            // its own to its ranks; without it every Open MPI rank discovered the machine again
            // (151 /sys files read, 49 of them PCI configuration, per rank at start-up)
            List<PmixInfo> info = List.of(PmixInfo.string("pmix.srvr.tmpdir", dir.toString()),
                    PmixInfo.string("pmix.sys.tmpdir", dir.toString()), PmixInfo.bool("pmix.srvr.share", true));
            MemorySegment array = server.infoArray(a, info);
            rc = lib.serverInit(PmixServerModule.get(), array.get(ADDRESS, 16), array.get(JAVA_LONG, 8));
            lib.dataArrayDestruct(array);
        } catch (Throwable t) {
            throw new PmixUnavailableException("PMIx_server_init failed: " + t);
        }
        if (rc != PmixLibrary.SUCCESS) {
            deleteTree(dir);
            PmixDirectory.gone();
            throw new PmixUnavailableException("PMIx_server_init failed: " + lib.error(rc));
        }
        instance = server;
        return server;
    }

    /**
     * A new directory only this user may enter (0700) under {@code parent}, named {@code prefix}
     * and a random suffix, as {@code Files.createTempDirectory} makes one but without its
     * {@code SecureRandom}, whose first use cost a fresh JVM 9-14 ms here, on the way to the
     * ranks' start. The directory is made by one {@code mkdir}, which fails on any name already
     * taken (a symbolic link included), so nobody else's directory is ever used: such a name is
     * passed over for another.
     */
    static Path ownDirectory(Path parent, String prefix) throws IOException {
        java.nio.file.attribute.FileAttribute<?> mode = java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        for (int tries = 1; ; tries++) {
            Path p = parent.resolve(prefix + Long.toUnsignedString(java.util.concurrent.ThreadLocalRandom.current().nextLong(), 36));
            try {
                return Files.createDirectory(p, mode);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (tries == 100) {
                    throw e;
                }
            }
        }
    }

    /** Where the server keeps its rendezvous files (and Open MPI its session directories). */
    public Path directory() {
        return tmpdir;
    }

    /** Registers a job's namespace before its ranks start here; its upcalls go to {@code listener}. */
    public void register(PmixRegistration r, Listener listener) {
        Job job = new Job(r.jobId(), r.nspace(), listener);
        List<PmixInfo> info = new java.util.ArrayList<>(r.info());
        info.add(PmixInfo.string("pmix.tmpdir", tmpdir.toString()));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment array = infoArray(a, info);
            int rc = lib.registerNspace(nspace(a, r.nspace()), r.ranks().length, array.get(ADDRESS, 16),
                    array.get(JAVA_LONG, 8));
            lib.dataArrayDestruct(array);
            check(rc, "PMIx_server_register_nspace " + r.nspace());
        } catch (PmixUnavailableException e) {
            throw e;
        } catch (Throwable t) {
            throw new PmixUnavailableException("PMIx_server_register_nspace failed: " + t);
        }
        jobs.put(r.nspace(), job);
        byId.put(r.jobId(), job);
    }

    /**
     * Registers one local rank as a client and returns the variables it needs to reach this
     * server ({@code PMIX_NAMESPACE}, {@code PMIX_RANK}, {@code PMIX_SERVER_URI*}, ...).
     */
    public Map<String, String> clientEnvironment(String nspace, int rank) {
        return clients.environment(nspace, rank);
    }

    /**
     * A fence of {@code jobId} is complete everywhere: the server gets every daemon's blob, one
     * after the other in one buffer (it unpacks them itself), and releases the local ranks.
     */
    public void fenceDone(int jobId, List<byte[]> blobs) {
        Job job = byId.get(jobId);
        MemorySegment callback;
        MemorySegment callbackData;
        synchronized (this) {
            if (job == null || job.fenceCallback == null) {
                return;
            }
            callback = job.fenceCallback;
            callbackData = job.fenceCallbackData;
            job.fenceCallback = null;
        }
        try {
            completeFence(lib, callback, callbackData, PmixLibrary.SUCCESS, blobs);
        } catch (Throwable t) {
            System.err.println("banyand: cannot complete the PMIx fence of job " + jobId + ": " + t);
        }
    }

    /**
     * Completes a fence (a job's, or one over several jobs): every daemon's blob, one after the
     * other in one malloc'd buffer the server unpacks itself and then frees.
     */
    static void completeFence(PmixLibrary lib, MemorySegment callback, MemorySegment callbackData, int status,
                              List<byte[]> blobs) {
        long total = 0;
        for (byte[] b : blobs) {
            total += b.length;
        }
        MemorySegment data = MemorySegment.NULL;
        if (total > 0) {
            data = lib.malloc(total);
            long at = 0;
            for (byte[] b : blobs) {
                MemorySegment.copy(b, 0, data, JAVA_BYTE, at, b.length);
                at += b.length;
            }
        }
        MemorySegment release = total > 0 ? lib.free : MemorySegment.NULL;
        PmixLibrary.modexDone(callback, status, data, total, callbackData, release, data);
    }

    /**
     * Another daemon wants a local rank's data: the server packs it once the rank has committed
     * it, and {@link Listener#modexData} gets it with {@code token}.
     *
     * @return false when the server cannot be asked (then nobody will answer the token)
     */
    public boolean fetchLocal(int jobId, int rank, int token) {
        Job job = byId.get(jobId);
        return job != null && PmixModexOps.fetchLocal(lib, job.jobId, job.nspace, job.listener, rank, token);
    }

    /** A remote rank's data came (null: its daemon has none): every request of the server for it is answered. */
    public void modexDone(int jobId, int rank, byte[] blob) {
        PmixModexOps.done(lib, jobId, rank, blob);
    }

    /** The head's answer to a request of the server: a name ({@link Listener#nameRequest}), a spawn, a connect. */
    public void nameReply(int token, boolean ok, String text) {
        PmixNames.reply(lib, token, ok, text);
    }

    static PmixServer instance() {
        return instance;
    }

    /** A registered namespace's job, or null. */
    Job job(String nspace) {
        return jobs.get(nspace);
    }

    /** A fence of {@code job} entered here: the callback that releases its local ranks, for {@link #fenceDone}. */
    synchronized void holdFence(Job job, MemorySegment callback, MemorySegment data) {
        job.fenceCallback = callback;
        job.fenceCallbackData = data;
    }

    /** The job of a registered namespace, or -1. */
    int jobIdOf(String nspace) {
        Job job = jobs.get(nspace);
        return job == null ? -1 : job.jobId;
    }

    /** The listener of a registered namespace, or null. */
    Listener listenerOf(String nspace) {
        Job job = jobs.get(nspace);
        return job == null ? null : job.listener;
    }

    /** The job is over here: the server forgets its namespace. */
    public void deregister(int jobId) {
        Job job = byId.remove(jobId);
        if (job == null) {
            return;
        }
        jobs.remove(job.nspace);
        try (Arena a = Arena.ofConfined()) {
            lib.deregisterNspace(nspace(a, job.nspace));
        } catch (Throwable t) {
            // the namespace stays registered: a leak of the server's, not a fault of the job
        }
    }

    /**
     * Ends the process's server, if one was started, and removes its directory. Bounded: a
     * server whose clients hang is left to the process's end.
     */
    public static void shutdown() {
        PmixServer s;
        synchronized (PmixServer.class) {
            s = instance;
            instance = null;
        }
        if (s == null) {
            return;
        }
        Thread t = Thread.ofPlatform().daemon().name("pmix-finalize").start(() -> {
            try {
                s.lib.serverFinalize();
            } catch (Throwable e) {
                // nothing more to do
            }
        });
        try {
            t.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteTree(s.tmpdir);
        PmixDirectory.gone();
    }

    // --- building what PMIx reads ---------------------------------------------------------

    /** A pmix_data_array_t of pmix_info_t (allocated in {@code a}; its array PMIx's, freed by PMIx_Data_array_destruct). */
    private MemorySegment infoArray(Arena a, List<PmixInfo> infos) {
        MemorySegment list = lib.listStart();
        try {
            for (PmixInfo i : infos) {
                MemorySegment value;
                MemorySegment nested = null;
                switch (i.type()) {
                    case BOOL -> value = a.allocateFrom(JAVA_BYTE, (byte) ((Boolean) i.value() ? 1 : 0));
                    case STRING -> value = a.allocateFrom((String) i.value());
                    case UINT16 -> value = a.allocateFrom(JAVA_SHORT, (short) (int) (Integer) i.value());
                    case UINT32, PROC_RANK -> value = a.allocateFrom(JAVA_INT, (Integer) i.value());
                    case INFO_ARRAY -> value = nested = infoArray(a, i.infos());
                    default -> throw new IllegalArgumentException(i.type().name());
                }
                int rc = lib.listAdd(list, a.allocateFrom(i.key()), value, i.type().code);
                if (nested != null) {
                    lib.dataArrayDestruct(nested); // PMIx copied it
                }
                check(rc, "PMIx_Info_list_add " + i.key());
            }
            MemorySegment array = a.allocate(PmixLibrary.DATA_ARRAY_SIZE, 8);
            check(lib.listConvert(list, array), "PMIx_Info_list_convert");
            return array;
        } finally {
            lib.listRelease(list);
        }
    }

    private void check(int rc, String what) {
        if (rc != PmixLibrary.SUCCESS && rc != PmixLibrary.OPERATION_SUCCEEDED) {
            throw new PmixUnavailableException(what + ": " + lib.error(rc));
        }
    }

    private static MemorySegment nspace(Arena a, String nspace) {
        MemorySegment s = a.allocate(PmixLibrary.NSPACE_SIZE);
        s.setString(0, nspace);
        return s;
    }

    static MemorySegment proc(Arena a, String nspace, int rank) {
        MemorySegment p = a.allocate(PmixLibrary.PROC_SIZE, 4);
        p.setString(0, nspace);
        p.set(JAVA_INT, PmixLibrary.PROC_RANK_OFFSET, rank);
        return p;
    }

    static String nspaceOf(MemorySegment proc) {
        return proc.reinterpret(PmixLibrary.PROC_SIZE).getString(0);
    }

    static int rankOf(MemorySegment proc) {
        return proc.reinterpret(PmixLibrary.PROC_SIZE).get(JAVA_INT, PmixLibrary.PROC_RANK_OFFSET);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: it lives under the temporary directory
                }
            });
        } catch (IOException e) {
            // already gone
        }
    }
}
