package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Locale;

/**
 * Every C call and every C callback Banyan makes (the PMIx server's, and libc's for spawning and
 * reaping processes in {@code runtime/os}) goes through one FFM shape: a call takes six 64-bit
 * integers and returns one (with or without errno captured), a callback takes eight and returns
 * one. The linker makes a stub (spun classes, which the AOT cache does not keep) for each shape it
 * sees; with one descriptor per C signature, the PMIx server's 14 call and 7 callback shapes cost
 * a fresh JVM about 80 ms before {@code PMIx_server_init}, on the path to an Open MPI job's first
 * rank, and each new callback shape 3 ms more inside the ranks' first fence. One shape of each
 * costs about 25 ms, shared by every caller in the JVM.
 *
 * <p>It relies on what the C calling conventions of Linux on x86-64 (System V) and AArch64
 * (AAPCS64) say, for functions that take at most six (calls) or eight (callbacks) integer or
 * pointer arguments and are not variadic: those arguments travel in the same registers whatever
 * their C width; a callee reads only the low bits of a narrower one, and never looks at
 * registers it does not declare; a narrower result is the low bits of the result register.
 * Callers therefore pass {@code int}s as they are, {@code uint16_t}s masked, pointers by their
 * {@link MemorySegment#address() address}, and cast results down; callbacks ignore the arguments
 * their C type does not have. On any other architecture nothing calls through it: the PMIx
 * server is not offered, daemons spawn with ProcessBuilder, and the JVM exits the ordinary way.
 */
public final class CCall {
    private static final FunctionDescriptor CALL =
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor CALLBACK = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    /** The Java type of a callback: {@code static long name(long a0, ..., long a7)}. */
    static final MethodType CALLBACK_TYPE = CALLBACK.toMethodType();
    private static volatile MethodHandle invoker;
    private static volatile MethodHandle errnoInvoker;

    private CCall() {}

    /**
     * The C environment's lock: {@code setenv} may move glibc's {@code environ} array while
     * another thread reads it, and {@code posix_spawnp} reads it ({@code getenv("PATH")}) to find
     * a program named without a slash. A {@code banyan run -n 1 -x X sh ...} crashed the JVM in
     * {@code getenv} while the PMIx server's start set its two variables. Writers take the write
     * lock; a spawn takes the read lock, so spawns still run side by side.
     */
    public static final java.util.concurrent.locks.ReentrantReadWriteLock ENVIRONMENT =
            new java.util.concurrent.locks.ReentrantReadWriteLock();

    /**
     * libc's {@code setenv(name, value, 0)} (a variable set already stays) under
     * {@link #ENVIRONMENT}'s write lock, for libraries that read the C environment (libpmix,
     * hwloc). The JDK's own copy is taken first: its first {@code System.getenv} reads
     * {@code environ} too, and a test that set variables before it failed there with an
     * ArrayIndexOutOfBoundsException.
     */
    public static void setenv(String name, String value) {
        changeEnvironment("setenv", name, value);
    }

    /** libc's {@code unsetenv}, as {@link #setenv} takes its lock (tests leave the environment as they found it). */
    public static void unsetenv(String name) {
        changeEnvironment("unsetenv", name, null);
    }

    private static void changeEnvironment(String function, String name, String value) {
        System.getenv();
        ENVIRONMENT.writeLock().lock();
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment n = a.allocateFrom(name);
            int rc = (int) (value == null ? call(libc(function), p(n)) : call(libc(function), p(n), p(a.allocateFrom(value)), 0));
            if (rc != 0) {
                throw new IllegalStateException(function + "(" + name + ") failed");
            }
        } finally {
            ENVIRONMENT.writeLock().unlock();
        }
    }

    /** Whether this machine's calling convention is one this class is written for. */
    public static boolean supported() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        return os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"));
    }

    private static MethodHandle invoker() {
        MethodHandle h = invoker;
        if (h == null) {
            synchronized (CCall.class) {
                if (invoker == null) {
                    invoker = Linker.nativeLinker().downcallHandle(CALL);
                }
                h = invoker;
            }
        }
        return h;
    }

    private static MethodHandle errnoInvoker() {
        MethodHandle h = errnoInvoker;
        if (h == null) {
            synchronized (CCall.class) {
                if (errnoInvoker == null) {
                    errnoInvoker = Linker.nativeLinker().downcallHandle(CALL, Linker.Option.captureCallState("errno"));
                }
                h = errnoInvoker;
            }
        }
        return h;
    }

    /** The C function {@code name} of the process's default libraries (libc), or an error naming it. */
    public static MemorySegment libc(String name) {
        return Linker.nativeLinker().defaultLookup().find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no " + name));
    }

    /**
     * As {@link #call(MemorySegment, long, long, long, long, long, long)}, leaving the call's
     * errno in {@code state} (a segment of {@link Linker.Option#captureStateLayout()}).
     */
    public static long callErrno(MemorySegment fn, MemorySegment state, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) errnoInvoker().invokeExact(fn, state, a, b, c, d, e, f);
        } catch (RuntimeException | Error x) {
            throw x;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static long callErrno(MemorySegment fn, MemorySegment state, long a) {
        return callErrno(fn, state, a, 0, 0, 0, 0, 0);
    }

    public static long callErrno(MemorySegment fn, MemorySegment state, long a, long b) {
        return callErrno(fn, state, a, b, 0, 0, 0, 0);
    }

    public static long callErrno(MemorySegment fn, MemorySegment state, long a, long b, long c) {
        return callErrno(fn, state, a, b, c, 0, 0, 0);
    }

    public static long callErrno(MemorySegment fn, MemorySegment state, long a, long b, long c, long d) {
        return callErrno(fn, state, a, b, c, d, 0, 0);
    }

    /** Makes the call shape now (about 20 ms of a fresh JVM), so that the first call does not wait for it. */
    public static void prepare() {
        invoker();
    }

    /** Calls the C function at {@code fn} with up to six integer or pointer arguments (unused ones 0). */
    public static long call(MemorySegment fn, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) invoker().invokeExact(fn, a, b, c, d, e, f);
        } catch (RuntimeException | Error x) {
            throw x;
        } catch (Throwable t) {
            throw new IllegalStateException(t); // a downcall handle throws nothing checked
        }
    }

    public static long call(MemorySegment fn) {
        return call(fn, 0, 0, 0, 0, 0, 0);
    }

    public static long call(MemorySegment fn, long a) {
        return call(fn, a, 0, 0, 0, 0, 0);
    }

    public static long call(MemorySegment fn, long a, long b) {
        return call(fn, a, b, 0, 0, 0, 0);
    }

    public static long call(MemorySegment fn, long a, long b, long c) {
        return call(fn, a, b, c, 0, 0, 0);
    }

    public static long call(MemorySegment fn, long a, long b, long c, long d) {
        return call(fn, a, b, c, d, 0, 0);
    }

    public static long call(MemorySegment fn, long a, long b, long c, long d, long e) {
        return call(fn, a, b, c, d, e, 0);
    }

    /**
     * A C function pointer that calls {@code static long name(long, ..., long)} (eight arguments)
     * of {@code lookup}'s class, for the life of the process.
     */
    static MemorySegment callback(MethodHandles.Lookup lookup, String name) throws ReflectiveOperationException {
        MethodHandle target = lookup.findStatic(lookup.lookupClass(), name, CALLBACK_TYPE);
        return Linker.nativeLinker().upcallStub(target, CALLBACK, Arena.global());
    }

    /** A pointer argument: the segment's address (a native segment's; a heap segment has none to give). */
    public static long p(MemorySegment s) {
        if (!s.isNative()) {
            throw new IllegalArgumentException("a heap segment has no address to give C");
        }
        return s.address();
    }

    /** A pointer result or argument of a callback, as a segment of length 0. */
    public static MemorySegment seg(long address) {
        return MemorySegment.ofAddress(address);
    }
}
