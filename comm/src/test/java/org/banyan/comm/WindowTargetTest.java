package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A window's target side alone: an operation outside its memory is refused back, not applied, whoever sent it. */
class WindowTargetTest {
    @Test
    void anOperationOutsideAFixedWindowIsRefusedBack() {
        MemorySegment memory = MemorySegment.ofArray(new byte[16]);
        List<String> replies = new ArrayList<>();
        WindowTarget target = new WindowTarget(memory, false, 2, (record, to, kind) -> replies.add(kind + "->" + to));
        MemorySegment put = MemorySegment.ofArray(new byte[WindowRecords.PUT_DATA + 8]);
        put.set(ValueLayout.JAVA_LONG_UNALIGNED, WindowRecords.OFFSET_AT, 12); // 8 bytes at 12: past the 16
        assertThat(target.arrived(WindowRecords.PUT, 1, put)).isTrue();
        MemorySegment get = MemorySegment.ofArray(new byte[WindowRecords.GET_SIZE]);
        get.set(ValueLayout.JAVA_LONG_UNALIGNED, WindowRecords.OFFSET_AT, -8);
        get.set(ValueLayout.JAVA_INT_UNALIGNED, WindowRecords.GET_LENGTH_AT, 8);
        assertThat(target.arrived(WindowRecords.GET, 1, get)).isTrue();
        put.set(ValueLayout.JAVA_LONG_UNALIGNED, WindowRecords.OFFSET_AT, 8); // within: applied
        put.set(ValueLayout.JAVA_LONG_UNALIGNED, WindowRecords.PUT_DATA, 42);
        target.arrived(WindowRecords.PUT, 1, put);
        assertThat(replies).containsExactly(WindowRecords.NACK + "->1", WindowRecords.REFUSED + "->1", WindowRecords.ACK + "->1");
        assertThat(memory.get(ValueLayout.JAVA_LONG_UNALIGNED, 8)).isEqualTo(42);
    }
}
