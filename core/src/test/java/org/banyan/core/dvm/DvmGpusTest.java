package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.GpuNames;
import org.banyan.core.pilot.NodeResources;
import org.junit.jupiter.api.Test;

class DvmGpusTest {
    final List<String> said = new ArrayList<>();
    final GpuNames names = new GpuNames();

    GeneralScheduler scheduler(int gpusEach) {
        return new GeneralScheduler(List.of(new NodeResources("a", 4, gpusEach), new NodeResources("b", 4, gpusEach)));
    }

    DvmGpus gpus(int declared, GeneralScheduler s) {
        return new DvmGpus(declared, s, names, i -> List.of("a", "b").get(i), said::add);
    }

    @Test
    void withoutADeclaredCountEachHostOffersWhatItsDaemonFound() {
        GeneralScheduler s = scheduler(DvmGpus.atStart(DvmCore.FOUND_GPUS));
        gpus(DvmCore.FOUND_GPUS, s).found(Map.of(1, "GPU-8f1c,GPU-03aa,GPU-77d0"));
        assertThat(s.gpusOn(0)).as("a host whose daemon said nothing has none").isZero();
        assertThat(s.gpusOn(1)).isEqualTo(3);
        assertThat(names.of(1, 0b101)).isEqualTo("GPU-8f1c,GPU-77d0");
        assertThat(said).containsExactly("b: 3 GPU(s) found (GPU-8f1c,GPU-03aa,GPU-77d0)");
    }

    @Test
    void aDeclaredCountStaysAndTakesTheNamesTheDaemonWasGiven() {
        GeneralScheduler s = scheduler(DvmGpus.atStart(2));
        gpus(2, s).found(Map.of(0, "2,3,4", 1, "6"));
        assertThat(s.gpusOn(0)).isEqualTo(2);
        assertThat(s.gpusOn(1)).isEqualTo(2);
        assertThat(names.of(0, 0b11)).isEqualTo("2,3");
        assertThat(names.of(1, 0b11)).as("fewer given than declared: the numbers, said once").isEqualTo("0,1");
        assertThat(said).containsExactly("b: 2 GPU(s) declared but its daemon was given 1 (6): its tasks get GPU numbers 0 to 1");
    }

    @Test
    void aHostWithMoreGpusThanAreToldApartOffersTheFirst64() {
        GeneralScheduler s = scheduler(0);
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 70; i++) {
            many.append(i == 0 ? "" : ",").append(i);
        }
        gpus(DvmCore.FOUND_GPUS, s).found(Map.of(0, many.toString()));
        assertThat(s.gpusOn(0)).isEqualTo(NodeResources.MAX_GPUS);
        assertThat(said.getFirst()).endsWith("; 70 listed, only 64 are told apart");
    }
}
