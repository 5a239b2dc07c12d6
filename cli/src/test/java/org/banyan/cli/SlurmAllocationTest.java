package org.banyan.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SlurmAllocationTest {
    @Test
    void expandsHostlists() throws Exception {
        assertThat(SlurmAllocation.expand("node[1-3,7],login")).containsExactly("node1", "node2", "node3", "node7", "login");
        assertThat(SlurmAllocation.expand("cn[08-11]")).containsExactly("cn08", "cn09", "cn10", "cn11");
        assertThat(SlurmAllocation.expand("a[1-2],b[5]")).containsExactly("a1", "a2", "b5");
        assertThatThrownBy(() -> SlurmAllocation.expand("a[1-2")).hasMessageContaining("unbalanced brackets");
    }

    @Test
    void readsCpusPerNode() throws Exception {
        assertThat(SlurmAllocation.counts("2(x3),1")).containsExactly(2, 2, 2, 1);
        assertThat(SlurmAllocation.counts("4")).containsExactly(4);
    }

    @Test
    void theAllocationIsTheHostList() throws Exception {
        assertThat(SlurmAllocation.hosts(Map.of("SLURM_JOB_NODELIST", "n[1-2]", "SLURM_JOB_CPUS_PER_NODE", "8(x2)")))
                .containsExactly(new HostEntry("n1", 8, "SLURM_JOB_NODELIST"), new HostEntry("n2", 8, "SLURM_JOB_NODELIST"));
        assertThat(SlurmAllocation.hosts(Map.of())).isEmpty();
    }
}
