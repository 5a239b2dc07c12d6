package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WholeLinesTest {
    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.US_ASCII);
    }

    @Test
    void chunksEndAtTheLastNewlineAndTheRestWaitsForItsEnd() {
        WholeLines w = new WholeLines();
        assertThat(s(w.add(b("a\nb\nc"), 5))).isEqualTo("a\nb\n");
        assertThat(w.holding()).isTrue();
        assertThat(s(w.add(b("cc"), 2))).isNull();
        assertThat(s(w.add(b("c\nd"), 3))).isEqualTo("cccc\n");
        assertThat(s(w.take())).isEqualTo("d");
        assertThat(w.holding()).isFalse();
    }

    @Test
    void onlyTheGivenLengthCounts() {
        assertThat(s(new WholeLines().add(b("x\nyyyy\n"), 3))).isEqualTo("x\n");
    }

    @Test
    void aLineLongerThanTheCapGoesInPieces() {
        WholeLines w = new WholeLines();
        byte[] big = new byte[WholeLines.CAP + 1];
        java.util.Arrays.fill(big, (byte) 'x');
        assertThat(w.add(big, big.length)).hasSize(WholeLines.CAP + 1);
        assertThat(w.holding()).isFalse();
    }

    /** What docs/run.md says of a long line: pieces of 64 to 128 KiB, read 64 KiB at a time. */
    @Test
    void aLongLineGoesInPiecesOf64To128KiB() {
        WholeLines w = new WholeLines();
        byte[] chunk = new byte[1 << 16];
        java.util.Arrays.fill(chunk, (byte) 'x');
        java.util.List<Integer> pieces = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            byte[] out = w.add(chunk, i % 3 == 0 ? chunk.length : 1000 + i);
            if (out != null) {
                pieces.add(out.length);
            }
        }
        assertThat(pieces).isNotEmpty().allMatch(n -> n > (1 << 16) && n <= (1 << 17));
    }
}
