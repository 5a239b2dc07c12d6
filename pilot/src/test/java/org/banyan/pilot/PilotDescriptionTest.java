package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A pilot that cannot be is refused when it is described, naming what is wrong, not when it launches. */
class PilotDescriptionTest {
    @Test
    void whatCannotBeAPilotIsRefused() {
        assertThat(PilotDescription.local(0).cores()).as("0: all of this machine's").isZero();
        assertThatThrownBy(() -> PilotDescription.local(-1)).hasMessage("a pilot's cores are 0 (all of this machine's) or more, not -1");
        assertThatThrownBy(() -> PilotDescription.ssh(List.of())).hasMessage("an ssh pilot needs at least one host");
        assertThatThrownBy(() -> PilotDescription.dvm(null)).hasMessage("a dvm pilot needs the DVM's URI file");
        assertThatThrownBy(() -> PilotDescription.slurm(0)).hasMessage("a Slurm pilot needs at least one node");
        assertThatThrownBy(() -> PilotDescription.local(2).runtime(-1))
                .hasMessage("a pilot's runtime is 0 (until canceled) or a number of minutes, not -1.0");
        assertThatThrownBy(() -> PilotDescription.local(2).runtime(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PilotDescription.local(2).warmUp(-1)).hasMessage("warm-up tasks per host must be 0 or more, not -1");
        assertThat(PilotDescription.slurm(2).gpus(4).runtime(5).gpusPerHost()).as("kept by the other withers").isEqualTo(4);
        assertThat(List.of(PilotDescription.local(2), PilotDescription.ssh(List.of("h")))).as("their hosts' own GPUs")
                .allMatch(d -> d.gpusPerHost() == PilotDescription.FOUND_GPUS);
        assertThat(PilotDescription.slurm(2).gpusPerHost()).as("a Slurm pilot has none unless it asks").isZero();
        assertThatThrownBy(() -> new PilotDescription("slurm", 0, List.of(), null, 0, 1, null, null, 0, PilotDescription.FOUND_GPUS))
                .hasMessage("only a local or ssh pilot finds its hosts' GPUs itself; a slurm pilot has those it asks for");
        assertThatThrownBy(() -> PilotDescription.local(2).gpus(-1)).hasMessage("a pilot's GPUs per host are 0 to 64, not -1");
        assertThatThrownBy(() -> PilotDescription.local(2).gpus(65)).hasMessage("a pilot's GPUs per host are 0 to 64, not 65");
        assertThatThrownBy(() -> PilotDescription.dvm(java.nio.file.Path.of("u")).gpus(1))
                .hasMessage("a dvm pilot has its DVM's GPUs (banyan dvm start --gpus-per-host)");
        assertThatThrownBy(() -> PilotDescription.local(2).partition("debug"))
                .hasMessage("a partition and an account are a Slurm pilot's (sbatch --partition, --account); a local pilot has neither");
        assertThatThrownBy(() -> PilotDescription.ssh(List.of("h")).account("proj"))
                .hasMessage("a partition and an account are a Slurm pilot's (sbatch --partition, --account); an ssh pilot has neither");
        assertThat(PilotDescription.slurm(1).partition("debug").account("proj").account()).isEqualTo("proj");
    }
}
