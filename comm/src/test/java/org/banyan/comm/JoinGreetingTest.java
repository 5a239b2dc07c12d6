package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class JoinGreetingTest {
    private static final byte[] DRAW = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, (byte) 0xff};

    @Test
    void aGreetingReadsBackAsWritten() throws Exception {
        CommJoin.Greeting g = new CommJoin.Greeting(DRAW, true, "banyan-comm-join.1.0.abc");
        byte[] wire = g.encode();
        assertThat(wire).startsWith(CommJoin.MAGIC);
        assertThat(wire[CommJoin.STATUS_OFFSET]).isEqualTo(CommJoin.READY);
        assertThat(ByteBuffer.wrap(wire).getShort(CommJoin.LENGTH_OFFSET)).isEqualTo((short) 24);
        CommJoin.Greeting back = CommJoin.Greeting.read(new ByteArrayInputStream(wire));
        assertThat(back.draw()).isEqualTo(DRAW);
        assertThat(back.ready()).isTrue();
        assertThat(back.text()).isEqualTo("banyan-comm-join.1.0.abc");
    }

    @Test
    void aLongReasonIsCutToTheLimitAndStillReads() throws Exception {
        CommJoin.Greeting g = new CommJoin.Greeting(DRAW, false, "x".repeat(5000));
        CommJoin.Greeting back = CommJoin.Greeting.read(new ByteArrayInputStream(g.encode()));
        assertThat(back.ready()).isFalse();
        assertThat(back.text()).hasSize(CommJoin.MAX_TEXT);
    }

    @Test
    void somethingElseOnTheSocketIsSaid() {
        byte[] http = "GET / HTTP/1.1\r\nHost: somewhere\r\n\r\n".getBytes();
        assertThatThrownBy(() -> CommJoin.Greeting.read(new ByteArrayInputStream(http)))
                .isInstanceOf(CommException.class)
                .hasMessageContaining("is not joining (it wrote 474554202f204854");
    }

    @Test
    void aBadStatusOrAnOverlongTextIsGarbled() {
        byte[] wire = new CommJoin.Greeting(DRAW, true, "s").encode();
        wire[CommJoin.STATUS_OFFSET] = 7;
        assertThatThrownBy(() -> CommJoin.Greeting.read(new ByteArrayInputStream(wire)))
                .isInstanceOf(CommException.class).hasMessageContaining("garbled (status 7");
        byte[] longer = new CommJoin.Greeting(DRAW, true, "s").encode();
        ByteBuffer.wrap(longer).putShort(CommJoin.LENGTH_OFFSET, (short) 60000);
        assertThatThrownBy(() -> CommJoin.Greeting.read(new ByteArrayInputStream(longer)))
                .isInstanceOf(CommException.class).hasMessageContaining("60000 bytes");
    }

    /** BANYAN_COMM_CONNECT_TIMEOUT=3000000 overflowed seconds * 1000 into a negative limit, which the socket refused with an exception join did not say. */
    @Test
    void aLongTimeLimitIsTheLargestASocketTakes() {
        assertThat(CommJoin.soTimeoutMillis(120)).isEqualTo(120_000);
        assertThat(CommJoin.soTimeoutMillis(3_000_000)).isEqualTo(Integer.MAX_VALUE);
        assertThat(CommJoin.soTimeoutMillis(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aGreetingCutShortIsAnEndOfStream() {
        byte[] wire = new CommJoin.Greeting(DRAW, true, "service").encode();
        assertThatThrownBy(() -> CommJoin.Greeting.read(new ByteArrayInputStream(wire, 0, wire.length - 2)))
                .isInstanceOf(EOFException.class);
    }
}
