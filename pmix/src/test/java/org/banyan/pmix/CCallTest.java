package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import org.junit.jupiter.api.Test;

/**
 * The one-shape calls against libc functions whose C types differ from it: an {@code int}
 * argument and result ({@code abs}), a pointer and a {@code size_t} ({@code strnlen}), and a
 * callback of two pointers returning {@code int} that libc calls back ({@code qsort}).
 */
class CCallTest {
    private static MemorySegment libc(String name) {
        return Linker.nativeLinker().defaultLookup().find(name).orElseThrow();
    }

    @Test
    void intArgumentsAndResultsKeepTheirSign() {
        assertThat(CCall.supported()).isTrue();
        assertThat((int) CCall.call(libc("abs"), -42)).isEqualTo(42);
        assertThat((int) CCall.call(libc("abs"), Integer.MIN_VALUE + 1)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void pointersTravelByTheirAddress() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment text = a.allocateFrom("banyan");
            assertThat(CCall.call(libc("strnlen"), CCall.p(text), 100)).isEqualTo(6);
            assertThat(CCall.call(libc("strnlen"), CCall.p(text), 3)).isEqualTo(3);
        }
    }

    @Test
    void aCallbackGetsItsArgumentsAndItsResultIsRead() throws Exception {
        MemorySegment compare = CCall.callback(MethodHandles.lookup(), "descending");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ints = a.allocateFrom(JAVA_INT, 3, -7, 12, 0, 5);
            CCall.call(libc("qsort"), CCall.p(ints), 5, 4, CCall.p(compare));
            assertThat(ints.toArray(JAVA_INT)).containsExactly(12, 5, 3, 0, -7);
        }
    }

    /** qsort's {@code int (*)(const void *, const void *)}: the six arguments it does not have are ignored. */
    private static long descending(long x, long y, long u2, long u3, long u4, long u5, long u6, long u7) {
        int a = CCall.seg(x).reinterpret(4).get(JAVA_INT, 0);
        int b = CCall.seg(y).reinterpret(4).get(JAVA_INT, 0);
        return Integer.compare(b, a);
    }
}
