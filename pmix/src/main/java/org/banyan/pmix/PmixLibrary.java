package org.banyan.pmix;

import static org.banyan.pmix.CCall.call;
import static org.banyan.pmix.CCall.p;
import static org.banyan.pmix.CCall.seg;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;

/**
 * The few entry points of libpmix's server API Banyan calls, called through {@link CCall}, and the struct
 * layouts it relies on. Written by hand against PMIx 4.2.2 (Debian 12's libpmix2, checked with
 * {@code sizeof}/{@code offsetof} on its headers):
 *
 * <ul>
 *   <li>{@code pmix_proc_t}: 260 bytes, {@code char nspace[256]} at 0, {@code uint32_t rank} at 256;
 *   <li>{@code pmix_data_array_t}: 24 bytes, {@code uint16_t type} at 0, {@code size_t size} at 8,
 *       {@code void *array} at 16;
 *   <li>{@code pmix_server_module_t}: 28 function pointers (224 bytes), of which Banyan fills the
 *       first eight: client_connected, client_finalized, abort, fence_nb, direct_modex, publish, lookup,
 *       unpublish ({@link PmixNames} reads {@code pmix_info_t} and writes {@code pmix_pdata_t} for the last three);
 *   <li>callbacks: {@code pmix_op_cbfunc_t (status, cbdata)}, {@code pmix_modex_cbfunc_t (status,
 *       data, size, cbdata, release_fn, release_cbdata)}, {@code pmix_dmodex_response_fn_t
 *       (status, data, size, cbdata)}.
 * </ul>
 *
 * <p>{@code pmix_info_t} arrays are never laid out here: they are built with
 * {@code PMIx_Info_list_*}, which PMIx exports for hosts in other languages, and released with
 * {@code PMIx_Data_array_destruct}. The library is looked up by its soname when a PMIx job first
 * needs it, never on the start-up path of other jobs.
 */
final class PmixLibrary {
    static final String SONAME = "libpmix.so.2";
    static final int PROC_SIZE = 260;
    static final int PROC_RANK_OFFSET = 256;
    static final int NSPACE_SIZE = 256;
    static final int DATA_ARRAY_SIZE = 24;
    static final int MODULE_SIZE = 224;
    static final short PMIX_DATA_ARRAY = 39;
    /** {@code pmix_info_t}: key at 0, value's type ({@code uint16_t}) at 520, value's data at 528. */
    static final int INFO_SIZE = 552;
    static final int INFO_VALUE_TYPE = 520;
    static final int INFO_VALUE_DATA = 528;
    static final short PMIX_STRING = 3;
    static final int SUCCESS = 0;
    static final int ERR_NOT_SUPPORTED = -47;
    static final int ERR_NOT_FOUND = -46;
    static final int OPERATION_SUCCEEDED = -157;

    private final MemorySegment serverInit;
    private final MemorySegment serverFinalize;
    private final MemorySegment registerNspace;
    private final MemorySegment deregisterNspace;
    private final MemorySegment registerClient;
    private final MemorySegment setupFork;
    private final MemorySegment dmodexRequest;
    private final MemorySegment valueLoad;
    private final MemorySegment listStart;
    private final MemorySegment listAdd;
    private final MemorySegment listConvert;
    private final MemorySegment listRelease;
    private final MemorySegment dataArrayDestruct;
    private final MemorySegment errorString;
    private final MemorySegment malloc;
    /** libc's {@code free}, which PMIx calls to release what Banyan hands it. */
    final MemorySegment free;
    private final MemorySegment getuid;
    private final MemorySegment getgid;

    private PmixLibrary(SymbolLookup pmix) {
        SymbolLookup libc = Linker.nativeLinker().defaultLookup();
        serverInit = find(pmix, "PMIx_server_init");
        serverFinalize = find(pmix, "PMIx_server_finalize");
        registerNspace = find(pmix, "PMIx_server_register_nspace");
        deregisterNspace = find(pmix, "PMIx_server_deregister_nspace");
        registerClient = find(pmix, "PMIx_server_register_client");
        setupFork = find(pmix, "PMIx_server_setup_fork");
        valueLoad = find(pmix, "PMIx_Value_load");
        dmodexRequest = find(pmix, "PMIx_server_dmodex_request");
        listStart = find(pmix, "PMIx_Info_list_start");
        listAdd = find(pmix, "PMIx_Info_list_add");
        listConvert = find(pmix, "PMIx_Info_list_convert");
        listRelease = find(pmix, "PMIx_Info_list_release");
        dataArrayDestruct = find(pmix, "PMIx_Data_array_destruct");
        errorString = find(pmix, "PMIx_Error_string");
        malloc = find(libc, "malloc");
        free = find(libc, "free");
        getuid = find(libc, "getuid");
        getgid = find(libc, "getgid");
    }

    private static MemorySegment find(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(
                () -> new UnsatisfiedLinkError(name + " is not in " + SONAME + " (PMIx 4 is needed)"));
    }

    // --- the C functions, typed: pointers by address, ints as they are, results cast down (see CCall) ---

    /** {@code pmix_status_t PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[], size_t ninfo)} */
    int serverInit(MemorySegment module, MemorySegment info, long ninfo) {
        return (int) call(serverInit, p(module), p(info), ninfo);
    }

    /** {@code pmix_status_t PMIx_server_finalize(void)} */
    int serverFinalize() {
        return (int) call(serverFinalize);
    }

    /** {@code PMIx_server_register_nspace(nspace, nlocalprocs, info, ninfo, NULL, NULL)}: done when it returns in 4.2. */
    int registerNspace(MemorySegment nspace, int nlocal, MemorySegment info, long ninfo) {
        return (int) call(registerNspace, p(nspace), nlocal, p(info), ninfo, 0, 0);
    }

    /** {@code void PMIx_server_deregister_nspace(nspace, NULL, NULL)} */
    void deregisterNspace(MemorySegment nspace) {
        call(deregisterNspace, p(nspace), 0, 0);
    }

    /**
     * {@code PMIx_server_register_client(proc, uid, gid, NULL, callback, data)}: returns once the
     * registration is queued on PMIx's progress thread; {@code callback} is called there when done.
     */
    int registerClient(MemorySegment proc, int uid, int gid, MemorySegment callback, long data) {
        return (int) call(registerClient, p(proc), uid, gid, 0, p(callback), data);
    }

    /** {@code pmix_status_t PMIx_server_setup_fork(const pmix_proc_t *proc, char ***env)} */
    int setupFork(MemorySegment proc, MemorySegment envp) {
        return (int) call(setupFork, p(proc), p(envp));
    }

    /** {@code pmix_status_t PMIx_Value_load(pmix_value_t *v, const void *data, pmix_data_type_t type)} */
    int valueLoad(MemorySegment value, MemorySegment data, short type) {
        return (int) call(valueLoad, p(value), p(data), type & 0xFFFF);
    }

    /** {@code pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t *proc, pmix_dmodex_response_fn_t cb, void *cbdata)} */
    int dmodexRequest(MemorySegment proc, MemorySegment callback, MemorySegment data) {
        return (int) call(dmodexRequest, p(proc), p(callback), p(data));
    }

    /** {@code void *PMIx_Info_list_start(void)} */
    MemorySegment listStart() {
        return seg(call(listStart));
    }

    /** {@code pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value, pmix_data_type_t type)} */
    int listAdd(MemorySegment list, MemorySegment key, MemorySegment value, short type) {
        return (int) call(listAdd, p(list), p(key), p(value), type & 0xFFFF);
    }

    /** {@code pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par)} */
    int listConvert(MemorySegment list, MemorySegment array) {
        return (int) call(listConvert, p(list), p(array));
    }

    /** {@code void PMIx_Info_list_release(void *ptr)} */
    void listRelease(MemorySegment list) {
        call(listRelease, p(list));
    }

    /** {@code void PMIx_Data_array_destruct(pmix_data_array_t *d)} */
    void dataArrayDestruct(MemorySegment array) {
        call(dataArrayDestruct, p(array));
    }

    /** libc's {@code malloc}, as a segment of {@code size} bytes (PMIx frees or reallocs what it is given). */
    MemorySegment malloc(long size) {
        return seg(call(malloc, size)).reinterpret(size);
    }

    /** libc's {@code free}, for what PMIx malloc'd and handed over. */
    void free(MemorySegment block) {
        call(free, p(block));
    }

    int getuid() {
        return (int) call(getuid);
    }

    int getgid() {
        return (int) call(getgid);
    }

    // --- callbacks PMIx hands the server --------------------------------------------------------

    /** {@code pmix_op_cbfunc_t(status, cbdata)} */
    static void opDone(MemorySegment callback, int status, MemorySegment data) {
        call(callback, status, p(data));
    }

    /** {@code pmix_modex_cbfunc_t(status, data, size, cbdata, release_fn, release_cbdata)} */
    static void modexDone(MemorySegment callback, int status, MemorySegment data, long size, MemorySegment cbdata,
                          MemorySegment release, MemorySegment releaseData) {
        call(callback, status, p(data), size, p(cbdata), p(release), p(releaseData));
    }

    /** {@code pmix_lookup_cbfunc_t(status, pdata, ndata, cbdata)} */
    static void lookupDone(MemorySegment callback, int status, MemorySegment pdata, long ndata, MemorySegment cbdata) {
        call(callback, status, p(pdata), ndata, p(cbdata));
    }

    /** {@code pmix_spawn_cbfunc_t(status, nspace, cbdata)} */
    static void spawnDone(MemorySegment callback, int status, MemorySegment nspace, MemorySegment cbdata) {
        call(callback, status, p(nspace), p(cbdata));
    }

    /**
     * Loads libpmix.
     *
     * @throws PmixUnavailableException when it is not installed here, or is not a PMIx 4 server library
     */
    static synchronized PmixLibrary load() {
        if (loaded != null) {
            return loaded;
        }
        loaded = bindNow();
        return loaded;
    }

    private static PmixLibrary loaded;

    private static PmixLibrary bindNow() {
        SymbolLookup pmix;
        try {
            pmix = SymbolLookup.libraryLookup(SONAME, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new PmixUnavailableException(SONAME + " is not installed (Debian: apt-get install libpmix2)");
        }
        if (!CCall.supported()) {
            throw new PmixUnavailableException("serving PMIx is written for Linux on x86-64 and AArch64, not "
                    + System.getProperty("os.arch"));
        }
        try {
            return new PmixLibrary(pmix);
        } catch (UnsatisfiedLinkError | java.util.NoSuchElementException e) {
            throw new PmixUnavailableException(e.getMessage());
        }
    }

    /** Where the dynamic loader looks for libraries besides LD_LIBRARY_PATH, on Debian and most others. */
    private static final java.util.List<String> LIBRARY_DIRS = java.util.List.of("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib", "/usr/local/lib");

    /**
     * Whether libpmix can be loaded here, without keeping anything of it. A file of its name where
     * the loader looks answers at once; only when there is none is the loader asked, which costs a
     * fresh JVM 20 ms (its FFM linker's start): {@code banyan run} asks this before every launch of
     * an Open MPI program.
     */
    static boolean installed() {
        String extra = System.getenv("LD_LIBRARY_PATH");
        java.util.List<String> dirs = new java.util.ArrayList<>();
        if (extra != null) {
            dirs.addAll(java.util.List.of(extra.split(":")));
        }
        dirs.addAll(LIBRARY_DIRS);
        for (String dir : dirs) {
            if (!dir.isEmpty() && java.nio.file.Files.isReadable(java.nio.file.Path.of(dir, SONAME))) {
                return true;
            }
        }
        try (Arena a = Arena.ofConfined()) {
            SymbolLookup.libraryLookup(SONAME, a);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    String error(int status) {
        try {
            return seg(call(errorString, status)).reinterpret(256).getString(0) + " (" + status + ")";
        } catch (Throwable t) {
            return "PMIx status " + status;
        }
    }
}
