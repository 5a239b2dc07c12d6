package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** Finds libc functions and binds them: for the process-creation classes (at their class load) and kill(2). */
final class Libc {
    private static final Linker LINKER = Linker.nativeLinker();
    /** Bound on the first error: most processes never see one. */
    private static volatile MethodHandle strerror;

    private Libc() {}

    /**
     * Binds {@code name}; with {@code errno} the handle takes a call-state segment first and
     * leaves the call's errno in it.
     *
     * @throws UnsupportedOperationException when libc has no such function
     */
    static MethodHandle bind(String name, FunctionDescriptor fd, boolean errno) {
        MemorySegment addr = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no " + name));
        return errno ? LINKER.downcallHandle(addr, fd, Linker.Option.captureCallState("errno"))
                : LINKER.downcallHandle(addr, fd);
    }

    static String strerror(int err) {
        try {
            MethodHandle h = strerror;
            if (h == null) {
                h = bind("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT), false);
                strerror = h;
            }
            MemorySegment s = (MemorySegment) h.invokeExact(err);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "error " + err;
        }
    }
}
