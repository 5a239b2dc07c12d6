package org.banyan.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessTableTest {
    static final JobDescription JOB = new JobDescription(3,
            List.of(new AppContext("./a", List.of(), 2, Map.of(), null), new AppContext("./b", List.of(), 3, Map.of(), null)),
            List.of(new Node("n0", 2), new Node("nödé1", 3)), MappingPolicy.NODE, false, -1, "/");

    @Test
    void theLayoutIsTheDocumentedOne() {
        byte[] t = ProcessTable.encode(RankMap.of(JOB));
        ByteBuffer b = ByteBuffer.wrap(t).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new String(t, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("BNYT");
        assertThat(b.getInt(4)).isEqualTo(1);
        assertThat(b.getInt(8)).isEqualTo(3);
        assertThat(b.getInt(12)).isEqualTo(5);
        assertThat(b.getInt(16)).isEqualTo(2);
        assertThat(b.getInt(20)).as("filled").isEqualTo(5);
        assertThat(b.getInt(24)).isEqualTo(64 + 5 * 32);
        assertThat(t).hasSize(64 + 5 * 32 + 2 + 2 + 2 + "nödé1".getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }

    @Test
    void theRanksBoundOnThisHostCarryTheirFirstCpuAndCount() {
        byte[] t = ProcessTable.encode(RankMap.of(JOB), r -> r == 1 ? new int[] {3, 4, 5} : null);
        assertThat(ProcessTable.read(t, 1).binding()).isEqualTo(3);
        assertThat(ProcessTable.read(t, 1).bindCount()).isEqualTo(3);
        assertThat(ProcessTable.read(t, 0).binding()).isEqualTo(-1);
        assertThat(ProcessTable.read(t, 0).bindCount()).isZero();
    }

    @Test
    void everyRankReadsBack() {
        byte[] t = ProcessTable.encode(RankMap.of(JOB));
        // --map-by node: ranks 0, 2, 4 on n0? n0 has 2 slots: 0 and 2 on n0, 1, 3, 4 on nödé1.
        RankMap map = RankMap.of(JOB);
        for (int r = 0; r < 5; r++) {
            ProcessTable.Entry e = ProcessTable.read(t, r);
            assertThat(e.rank()).isEqualTo(r);
            assertThat(e.node()).isEqualTo(map.nodeOf(r));
            assertThat(e.host()).isEqualTo(JOB.nodes().get(map.nodeOf(r)).name());
            assertThat(e.localRank()).isEqualTo(map.localRankOf(r));
            assertThat(e.localSize()).isEqualTo(map.ranksOn(map.nodeOf(r)));
            assertThat(e.appnum()).isEqualTo(r < 2 ? 0 : 1);
            assertThat(e.binding()).isEqualTo(-1);
        }
        assertThatThrownBy(() -> ProcessTable.read(t, 5)).hasMessageContaining("rank 5");
        assertThatThrownBy(() -> ProcessTable.read(new byte[64], 0)).hasMessageContaining("not a Banyan process table");
    }
}
