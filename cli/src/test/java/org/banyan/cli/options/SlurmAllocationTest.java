package org.banyan.cli.options;

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
        assertThat(SlurmAllocation.counts("SLURM_JOB_CPUS_PER_NODE", "2(x3),1")).containsExactly(2, 2, 2, 1);
        assertThat(SlurmAllocation.counts("SLURM_JOB_CPUS_PER_NODE", "4")).containsExactly(4);
        assertThatThrownBy(() -> SlurmAllocation.counts("SLURM_TASKS_PER_NODE", "2(x"))
                .hasMessage("SLURM_TASKS_PER_NODE '2(x': cannot read '2(x'");
    }

    @Test
    void theAllocationIsTheHostList() throws Exception {
        assertThat(SlurmAllocation.hosts(Map.of("SLURM_JOB_NODELIST", "n[1-2]", "SLURM_JOB_CPUS_PER_NODE", "8(x2)"),
                SlurmAllocation.Slots.TASKS))
                .containsExactly(new HostEntry("n1", 8, "SLURM_JOB_NODELIST"), new HostEntry("n2", 8, "SLURM_JOB_NODELIST"));
        assertThat(SlurmAllocation.hosts(Map.of(), SlurmAllocation.Slots.CPUS)).isEmpty();
    }

    /**
     * {@code salloc -n 2 -c 2} on nodes of 2 CPUs: a rank per task for banyan run, as mpirun and
     * srun (it ran one per CPU, each rank's threads then sharing its CPUs with another rank's);
     * every CPU for a DVM's tasks.
     */
    @Test
    void runPlacesRanksInTheJobsTasksAndADvmHandsOutItsCpus() throws Exception {
        Map<String, String> env = Map.of("SLURM_JOB_NODELIST", "n[1-2]", "SLURM_JOB_CPUS_PER_NODE", "2(x2)",
                "SLURM_TASKS_PER_NODE", "1(x2)", "SLURM_CPUS_PER_TASK", "2");
        assertThat(SlurmAllocation.hosts(env, SlurmAllocation.Slots.TASKS)).extracting(HostEntry::slots).containsExactly(1, 1);
        assertThat(SlurmAllocation.hosts(env, SlurmAllocation.Slots.CPUS)).extracting(HostEntry::slots).containsExactly(2, 2);
    }
}
