package org.banyan.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.pilot.TaskState;
import org.junit.jupiter.api.Test;

/** The enums' bytes on the wire are the table's, stable, and a byte no constant has is named. */
class WireCodesTest {
    @Test
    void everyTableCoversItsEnumAndKeepsTheCodesTheWireHad() {
        for (WireCodes<?> t : List.of(WireCodes.MAPPING, WireCodes.MODEX, WireCodes.WIRE_UP, WireCodes.BIND_TO,
                WireCodes.DEPENDENCY, WireCodes.TASK_STATE, WireCodes.HOST_STATE)) {
            assertThat(t.all()).isNotEmpty().doesNotHaveDuplicates();
        }
        assertThat(WireCodes.MAPPING.code(MappingPolicy.NODE)).isEqualTo(1);
        assertThat(WireCodes.TASK_STATE.code(TaskState.DONE)).isEqualTo(15);
        assertThat(WireCodes.TASK_STATE.of(17)).isEqualTo(TaskState.CANCELED);
    }

    @Test
    void aByteNoConstantHasIsBadInputNamed() {
        assertThatThrownBy(() -> WireCodes.WIRE_UP.of(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown wire-up 3");
        assertThatThrownBy(() -> WireCodes.MAPPING.of(-1)).hasMessage("unknown mapping policy -1");
        // through the codec: a RUN_JOB whose last byte (its wire-up) is out of range
        byte[] frame = ClientCodec.encode(new ClientMessage.RunJob(List.of(new org.banyan.core.job.AppContext("a", List.of(), 1,
                java.util.Map.of(), null)), MappingPolicy.SLOT, false, 0, "/", org.banyan.core.job.Modex.LAZY, 0,
                org.banyan.core.job.RankPlacement.NONE));
        frame[frame.length - 1] = 9;
        assertThatThrownBy(() -> ClientCodec.decode(java.util.Arrays.copyOfRange(frame, 4, frame.length)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown wire-up 9");
    }
}
