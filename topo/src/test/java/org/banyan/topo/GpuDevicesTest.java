package org.banyan.topo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuDevicesTest {
    @TempDir
    Path root;

    @Test
    void aHostWithoutDriversHasNoGpu() {
        assertThat(GpuDevices.detect(Map.of(), root)).isEmpty();
    }

    @Test
    void nvidiaGpusAreTheDriversDirectoriesNumberedFromZero() throws IOException {
        Path gpus = Files.createDirectories(root.resolve("proc/driver/nvidia/gpus"));
        Files.createDirectory(gpus.resolve("0000:3b:00.0"));
        Files.createDirectory(gpus.resolve("0000:af:00.0"));
        Files.createFile(gpus.resolve("not-a-gpu"));

        assertThat(GpuDevices.detect(Map.of(), root)).containsExactly("0", "1");
    }

    @Test
    void amdGpusAreTheKfdNodesWithAGpuId() throws IOException {
        Path nodes = root.resolve("sys/class/kfd/kfd/topology/nodes");
        for (String[] n : new String[][] {{"0", "0"}, {"1", "43421"}, {"2", "8765"}}) {
            Files.writeString(Files.createDirectories(nodes.resolve(n[0])).resolve("gpu_id"), n[1] + "\n");
        }

        assertThat(GpuDevices.detect(Map.of(), root)).containsExactly("0", "1");
    }

    @Test
    void whatTheProcessWasGivenWinsOverWhatTheHostHas() throws IOException {
        Path gpus = Files.createDirectories(root.resolve("proc/driver/nvidia/gpus"));
        for (int i = 0; i < 4; i++) {
            Files.createDirectory(gpus.resolve("gpu" + i));
        }

        assertThat(GpuDevices.detect(Map.of("CUDA_VISIBLE_DEVICES", "2,3"), root)).containsExactly("2", "3");
        assertThat(GpuDevices.detect(Map.of("CUDA_VISIBLE_DEVICES", "GPU-8f1c,MIG-7a2d"), root))
                .containsExactly("GPU-8f1c", "MIG-7a2d");
        assertThat(GpuDevices.detect(Map.of("CUDA_VISIBLE_DEVICES", ""), root)).isEmpty();
    }

    @Test
    void aSlurmJobHasTheGpusSlurmListedAndNoneWhenItListedNone() throws IOException {
        Path gpus = Files.createDirectories(root.resolve("proc/driver/nvidia/gpus"));
        Files.createDirectory(gpus.resolve("gpu0"));
        Files.createDirectory(gpus.resolve("gpu1"));

        assertThat(GpuDevices.detect(Map.of("SLURM_JOB_ID", "42"), root)).as("the node's GPUs are other jobs'").isEmpty();
        assertThat(GpuDevices.detect(Map.of("SLURM_JOB_ID", "42", "CUDA_VISIBLE_DEVICES", "1"), root)).containsExactly("1");
    }

    @Test
    void aVisibleListEndsAtItsFirstNegativeEntryAsCudaReadsIt() {
        assertThat(GpuDevices.visible("-1")).isEmpty();
        assertThat(GpuDevices.visible("1, 0,-1,3")).containsExactly("1", "0");
        assertThat(GpuDevices.visible("5,,7,")).containsExactly("5", "7");
    }
}
