package org.banyan.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

class FrameChannelPairTest {
    /** What a served end saw: its messages, then "ended" with the reason's class. */
    static java.util.List<Object> served(FrameChannel end) {
        java.util.List<Object> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        end.serve("unused", new FrameChannel.Reader() {
            @Override
            public void message(OverlayMessage m) {
                seen.add(m);
            }

            @Override
            public void ended(IOException why) {
                seen.add(why.getClass());
            }
        });
        return seen;
    }

    @Test
    void carriesFramesBothWaysAndCountsThemLikeASocket() throws IOException {
        FrameChannel[] ends = FrameChannel.pair();
        java.util.List<Object> atZero = served(ends[0]);
        java.util.List<Object> atOne = served(ends[1]);
        ends[0].send(new OverlayMessage.DaemonHello(3, "h", 42, "127.0.0.1:1"));
        ends[1].send(new OverlayMessage.PeerHello(7));
        assertThat(atOne).containsExactly(new OverlayMessage.DaemonHello(3, "h", 42, "127.0.0.1:1"));
        assertThat(atZero).containsExactly(new OverlayMessage.PeerHello(7));
        assertThat(ends[0].framesSent()).isEqualTo(1);
        assertThat(ends[1].framesReceived()).isEqualTo(1);
        assertThat(ends[0].bytesSent()).isEqualTo(ends[1].bytesReceived()).isPositive();
    }

    @Test
    void handsADvmsTaskTrafficOverAsItIsCountedInFramesOnly() throws IOException {
        FrameChannel[] ends = FrameChannel.pair();
        java.util.List<Object> atOne = served(ends[1]);
        var run = new OverlayMessage.RunTasks(-1, 0, java.util.List.of(new org.banyan.core.pilot.TaskSpec(7, "/bin/true",
                java.util.List.of(), java.util.Map.of(), "/tmp/s", "stdout", "stderr", null, 0)));
        var ends7 = new OverlayMessage.RanksExited(java.util.List.of(new OverlayMessage.RankExited(OverlayMessage.TASKS, 7, 0, "")));
        ends[0].send(run);
        ends[0].send(ends7);
        ends[0].send(new OverlayMessage.PeerHello(1));
        assertThat(atOne).hasSize(3);
        assertThat(atOne.get(0)).isSameAs(run);
        assertThat(atOne.get(1)).isSameAs(ends7);
        assertThat(atOne.get(2)).isEqualTo(new OverlayMessage.PeerHello(1));
        assertThat(ends[0].framesSent()).isEqualTo(3);
        assertThat(ends[1].framesReceived()).isEqualTo(3);
        assertThat(ends[0].bytesSent()).as("the hello's frame only").isEqualTo(ends[1].bytesReceived())
                .isEqualTo(org.banyan.core.wire.OverlayCodec.encode(new OverlayMessage.PeerHello(1)).length);
    }

    @Test
    void closingEitherEndEndsTheReadersOfBoth() throws IOException {
        FrameChannel[] ends = FrameChannel.pair();
        java.util.List<Object> atZero = served(ends[0]);
        ends[0].send(new OverlayMessage.PeerHello(1));
        ends[0].close();
        // what was sent first still arrives, then one end, even for an end served after the close
        assertThat(served(ends[1])).containsExactly(new OverlayMessage.PeerHello(1), EOFException.class);
        assertThat(atZero).containsExactly(EOFException.class);
        ends[1].close();
        assertThat(atZero).as("ended once").containsExactly(EOFException.class);
        assertThatThrownBy(() -> ends[1].send(new OverlayMessage.PeerHello(2))).isInstanceOf(IOException.class);
        assertThatThrownBy(ends[1]::receive).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aServedEndGetsWhatCameBeforeThenEachMessageOnTheSendersThreadAndOneEnd() throws IOException {
        FrameChannel[] ends = FrameChannel.pair();
        ends[0].send(new OverlayMessage.PeerHello(1));
        java.util.List<Object> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        ends[1].serve("unused", new FrameChannel.Reader() {
            @Override
            public void message(OverlayMessage m) {
                seen.add(m);
                seen.add(Thread.currentThread().getName());
            }

            @Override
            public void ended(IOException why) {
                seen.add("ended");
            }
        });
        Thread.currentThread().setName("sender");
        ends[0].send(new OverlayMessage.PeerHello(2));
        ends[0].close();
        ends[1].close();
        assertThat(seen).hasSize(5);
        assertThat(seen.get(0)).isEqualTo(new OverlayMessage.PeerHello(1));
        assertThat(seen.subList(2, 5)).containsExactly(new OverlayMessage.PeerHello(2), "sender", "ended");
        assertThat(ends[1].framesReceived()).isEqualTo(2);
    }
}
