package org.banyan.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.junit.jupiter.api.Test;

class RawTextTest {
    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    @Test
    void anyBytesComeBackAsTheyWere() {
        Random r = new Random(16);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = new byte[r.nextInt(24)];
            r.nextBytes(b);
            if (round % 3 == 0) { // mostly text with a few stray bytes, as real names are
                for (int i = 0; i < b.length; i++) {
                    if (r.nextInt(4) != 0) {
                        b[i] = (byte) ('a' + r.nextInt(26));
                    }
                }
            }
            String s = RawText.decode(b);
            assertThat(RawText.encode(s)).as("round %d: %s", round, Arrays.toString(b)).isEqualTo(b);
            assertThat(RawText.encodedLength(s)).isEqualTo(b.length);
        }
    }

    @Test
    void textIsItsUtf8() {
        for (String s : List.of("", "plain", "h\u00e9 \u4e16.txt", "\uD83D\uDE00 emoji", "\u00ff\u0100\u07ff\u0800\uffff",
                "\uFFFD replacement")) {
            assertThat(RawText.encode(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
            assertThat(RawText.decode(s.getBytes(StandardCharsets.UTF_8))).isEqualTo(s);
        }
    }

    @Test
    void eachByteThatIsNotUtf8StandsAlone() {
        assertThat(RawText.decode(bytes('c', 'a', 'f', 0xE9))).isEqualTo("caf\uDCE9"); // Latin-1 e-acute
        assertThat(RawText.decode(bytes(0xC0, 0x80))).isEqualTo("\uDCC0\uDC80"); // overlong NUL
        assertThat(RawText.decode(bytes(0xED, 0xA0, 0x80))).isEqualTo("\uDCED\uDCA0\uDC80"); // a surrogate's UTF-8
        assertThat(RawText.decode(bytes(0xF4, 0x90, 0x80, 0x80))).isEqualTo("\uDCF4\uDC90\uDC80\uDC80"); // past U+10FFFF
        assertThat(RawText.decode(bytes(0xE2, 0x82))).isEqualTo("\uDCE2\uDC82"); // cut short
        assertThat(RawText.decode(bytes(0xE2, 0x82, 0xAC, 0xFF))).isEqualTo("\u20AC\uDCFF");
        assertThat(RawText.isEscapedByte('\uDCE9')).isTrue();
        assertThat(RawText.isEscapedByte('\uD83D')).isFalse();
    }

    @Test
    void aLoneSurrogateThatStandsForNoByteBecomesAQuestionMark() {
        assertThat(RawText.encode("a\uD800b")).isEqualTo(bytes('a', '?', 'b'));
        assertThat(RawText.encodedLength("a\uD800b")).isEqualTo(3);
    }

    @Test
    void bytesCrossTheClientWireUnchanged() {
        String arg = RawText.decode(bytes('a', 0xFF, 'b'));
        String value = RawText.decode(bytes('v', 0xFE));
        ClientMessage m = new ClientMessage.RunJob(List.of(new AppContext("./ech" + RawText.decode(bytes(0xF6)), List.of(arg), 1,
                Map.of("X", value), null)), MappingPolicy.SLOT, false, -1, "/tmp", Modex.FULL, 0);
        ClientMessage back = ClientCodecTest.roundTrip(m);
        assertThat(back).isEqualTo(m);
        AppContext app = ((ClientMessage.RunJob) back).apps().getFirst();
        assertThat(RawText.encode(app.args().getFirst())).isEqualTo(bytes('a', 0xFF, 'b'));
        assertThat(RawText.encode(app.env().get("X"))).isEqualTo(bytes('v', 0xFE));
    }
}
