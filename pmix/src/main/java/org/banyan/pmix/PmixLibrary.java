package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The few entry points of libpmix's server API Banyan calls, bound through FFM, and the struct
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

    final MethodHandle serverInit;
    final MethodHandle serverFinalize;
    final MethodHandle registerNspace;
    final MethodHandle deregisterNspace;
    final MethodHandle registerClient;
    final MethodHandle setupFork;
    final MethodHandle dmodexRequest;
    final MethodHandle valueLoad;
    final MethodHandle listStart;
    final MethodHandle listAdd;
    final MethodHandle listConvert;
    final MethodHandle listRelease;
    final MethodHandle dataArrayDestruct;
    final MethodHandle errorString;
    final MethodHandle malloc;
    final MemorySegment free;
    final MethodHandle getuid;
    final MethodHandle getgid;
    final MethodHandle setenv;

    private PmixLibrary(SymbolLookup pmix) {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        serverInit = bind(linker, pmix, "PMIx_server_init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        serverFinalize = bind(linker, pmix, "PMIx_server_finalize", FunctionDescriptor.of(JAVA_INT));
        registerNspace = bind(linker, pmix, "PMIx_server_register_nspace",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
        deregisterNspace = bind(linker, pmix, "PMIx_server_deregister_nspace",
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
        registerClient = bind(linker, pmix, "PMIx_server_register_client",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        setupFork = bind(linker, pmix, "PMIx_server_setup_fork", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        valueLoad = bind(linker, pmix, "PMIx_Value_load", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT));
        dmodexRequest = bind(linker, pmix, "PMIx_server_dmodex_request", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        listStart = bind(linker, pmix, "PMIx_Info_list_start", FunctionDescriptor.of(ADDRESS));
        listAdd = bind(linker, pmix, "PMIx_Info_list_add", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_SHORT));
        listConvert = bind(linker, pmix, "PMIx_Info_list_convert", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        listRelease = bind(linker, pmix, "PMIx_Info_list_release", FunctionDescriptor.ofVoid(ADDRESS));
        dataArrayDestruct = bind(linker, pmix, "PMIx_Data_array_destruct", FunctionDescriptor.ofVoid(ADDRESS));
        errorString = bind(linker, pmix, "PMIx_Error_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        malloc = bind(linker, libc, "malloc", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
        free = libc.find("free").orElseThrow();
        getuid = bind(linker, libc, "getuid", FunctionDescriptor.of(JAVA_INT));
        getgid = bind(linker, libc, "getgid", FunctionDescriptor.of(JAVA_INT));
        setenv = bind(linker, libc, "setenv", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    }

    private static MethodHandle bind(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor fd) {
        return linker.downcallHandle(lookup.find(name).orElseThrow(
                () -> new UnsatisfiedLinkError(name + " is not in " + SONAME + " (PMIx 4 is needed)")), fd);
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
            MemorySegment s = (MemorySegment) errorString.invokeExact(status);
            return s.reinterpret(256).getString(0) + " (" + status + ")";
        } catch (Throwable t) {
            return "PMIx status " + status;
        }
    }
}
