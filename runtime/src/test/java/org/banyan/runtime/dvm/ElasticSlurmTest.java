package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import org.banyan.rm.AllocationPolicy;
import org.junit.jupiter.api.Test;

/** Reading what Slurm shows (the policy that acts on it is core/dvm's ElasticPolicy, tested there). */
class ElasticSlurmTest {
    @Test
    void theFirstJobWaitingForResourcesByPriorityAndTheDistinctIdleNodes() {
        String squeue = """
                41 2 100 Resources
                42 8 900 Dependency
                43 3 500 Priority
                44 1 500 Resources
                7 4 9999 Resources
                """;
        String sinfo = "node5\nnode6\nnode5\n";
        assertThat(ElasticSlurm.outside(squeue, sinfo, "7"))
                .as("job 42 waits for another job, 7 is the DVM's own; 43 and 44 tie, 43 is older")
                .isEqualTo(new AllocationPolicy.Outside(true, 3, 2));
        assertThat(ElasticSlurm.outside("", "", "7")).isEqualTo(new AllocationPolicy.Outside(false, 0, 0));
    }
}
