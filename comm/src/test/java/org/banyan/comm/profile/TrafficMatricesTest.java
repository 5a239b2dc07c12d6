package org.banyan.comm.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrafficMatricesTest {
    @TempDir
    Path dir;

    @Test
    void linesOfEachKindLandInTheirCategories() {
        TrafficMatrices t = TrafficMatrices.parse(List.of("# a comment", "E\t0\t1\t800 bytes\t2 msgs sent", "I\t1\t0\t16 bytes\t1 msgs sent",
                "C\t0\t2\t64 bytes\t4 msgs sent"));
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.bytes(TrafficMatrices.Category.ALL)[0][1]).isEqualTo(800);
        assertThat(t.bytes(TrafficMatrices.Category.EXTERNAL)[0][1]).isEqualTo(800);
        assertThat(t.bytes(TrafficMatrices.Category.INTERNAL)[1][0]).isEqualTo(16);
        assertThat(t.messages(TrafficMatrices.Category.COLL)[0][2]).isEqualTo(4);
    }

    /** One line naming a huge rank asked for matrices of that many ranks squared (800 GB at rank 100,000). */
    @Test
    void aRankBeyondWhatMemoryHoldsIsRefused() {
        int most = TrafficMatrices.maxRanks();
        assertThatThrownBy(() -> TrafficMatrices.parse(List.of("E\t0\t" + most + "\t8 bytes\t1 msgs sent")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a profile names rank " + most + ": the matrices of more than " + most
                        + " ranks do not fit in half of this command's memory");
        assertThatThrownBy(() -> TrafficMatrices.parse(List.of("E\t99999999999999999999999\t0\t8 bytes\t1 msgs sent")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("a profile names rank 99999999999999999999999: ");
    }

    @Test
    void aDeviceABinaryFileAndAHugeFileAreNoProfiles() throws Exception {
        assertThatThrownBy(() -> TrafficMatrices.read(Path.of("/dev/zero"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("/dev/zero is neither a directory of .prof files nor a .prof file");
        Path binary = dir.resolve("bin.prof");
        Files.write(binary, new byte[] {0, 1, (byte) 0xff, (byte) 0xfe, '\n'});
        assertThatThrownBy(() -> TrafficMatrices.read(binary)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(binary + " is not a monitoring profile (not text)");
        Path huge = dir.resolve("huge.prof");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(Runtime.getRuntime().maxMemory() / 4 + 1);
        }
        assertThatThrownBy(() -> TrafficMatrices.read(huge)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(a quarter of this command's memory) from " + huge + " on: is it a monitoring profile?");
    }
}
