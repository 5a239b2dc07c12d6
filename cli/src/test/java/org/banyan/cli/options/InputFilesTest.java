package org.banyan.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFilesTest {
    @TempDir
    Path dir;

    /** An endless stream of text ({@code yes} through a pipe) is read no further than the bound, which the caller refuses. */
    @Test
    void anEndlessStreamOfTextIsReadNoFurtherThanTheBound() throws Exception {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'y';
            }
        };
        assertThat(InputFiles.readText(endless, "--swf '/dev/stdin'", (1 << 20) + 5)).hasSize((1 << 20) + 5);
    }

    /**
     * {@code /dev/zero} and {@code /dev/urandom} named by mistake are refused after their first
     * chunk, for what they hold, not after a quarter of the heap (that took 10 s of zeros).
     */
    @Test
    void endlessBinaryDevicesAreRefusedAtTheirFirstChunk() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> InputFiles.largeText(Path.of("/dev/zero"), "--swf"))
                .isInstanceOf(UsageException.class).hasMessage("--swf '/dev/zero' is not text: line 1 has a NUL byte");
        assertThatThrownBy(() -> InputFiles.largeText(Path.of("/dev/urandom"), "--topology"))
                .isInstanceOf(UsageException.class)
                .hasMessageMatching("--topology '/dev/urandom' is not text: line [0-9]+ (has a NUL byte|is not UTF-8)");
        assertThat((System.nanoTime() - start) / 1e9).as("seconds for both").isLessThan(5);
    }

    /** Files of a few bytes, empty included: the buffers are sized by what was read, never to nothing. */
    @Test
    @org.junit.jupiter.api.Timeout(10)
    void smallFilesAreReadWhole() throws Exception {
        for (String text : new String[] {"", "a", "node1\n", "n\u00e9\n", "abcdefghijklmnopqrstuvwxyz\n"}) {
            Path f = dir.resolve("hosts");
            Files.writeString(f, text);
            assertThat(InputFiles.text(f, "hostfile")).isEqualTo(text);
        }
        Path cut = dir.resolve("cut");
        Files.write(cut, new byte[] {'a', '\n', 'n', (byte) 0xC3});
        assertThatThrownBy(() -> InputFiles.text(cut, "hostfile")).as("ends inside a character, in its only chunk")
                .hasMessage("hostfile '" + cut + "' is not text: line 2 is not UTF-8");
    }

    /** A character of several bytes across the edge of a chunk is text. */
    @Test
    void aCharacterAcrossTwoChunksIsRead() throws Exception {
        StringBuilder b = new StringBuilder();
        b.append("a".repeat((1 << 20) - 1)).append("é\n"); // é's two bytes either side of 1 MiB
        b.append("∑ ends here\n");
        Path f = dir.resolve("trace.swf");
        Files.writeString(f, b);
        assertThat(InputFiles.largeText(f, "--swf")).isEqualTo(b.toString());
        Path cut = dir.resolve("cut.swf");
        Files.write(cut, java.util.Arrays.copyOf(b.toString().getBytes(StandardCharsets.UTF_8), 1 << 20));
        assertThatThrownBy(() -> InputFiles.largeText(cut, "--swf")).as("a file that ends inside a character")
                .hasMessage("--swf '" + cut + "' is not text: line 1 is not UTF-8");
    }
}
