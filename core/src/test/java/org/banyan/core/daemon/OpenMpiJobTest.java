package org.banyan.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The transport key Open MPI's PSM/OFI read: one per job, the same on every daemon, in mpirun's form. */
class OpenMpiJobTest {
    @Test
    void oneKeyPerNamespaceInMpirunsForm() {
        String k = OpenMpiJob.transportKey("banyan.4955.43b4da.1");
        assertThat(k).matches("[0-9a-f]{16}-[0-9a-f]{16}").isEqualTo(OpenMpiJob.transportKey("banyan.4955.43b4da.1"));
        assertThat(OpenMpiJob.transportKey("banyan.4955.43b4da.2")).isNotEqualTo(k);
        assertThat(OpenMpiJob.transportKey("banyan.4956.43b4da.1")).isNotEqualTo(k);
    }
}
