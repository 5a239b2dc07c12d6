package org.banyan.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

class UpstreamForwarderTest {
    @Test
    void keepsOrderBatchesQueuedOutputAndNeverLetsARankEndOvertakeIt() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // the acceptor's side of the link's proof, as ChildLinks does it, while connect waits for it
            java.util.concurrent.CompletableFuture<Socket> accepted = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    Socket a = server.accept();
                    LinkAuth.challenge(a);
                    return a;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            FrameChannel up = FrameChannel.connect("127.0.0.1:" + server.getLocalPort(), 5000);
            try (Socket s = accepted.join()) {
                FrameChannel down = new FrameChannel(s);
                UpstreamForwarder f = new UpstreamForwarder(up);
                int chunks = 5000;
                for (int i = 0; i < chunks; i++) {
                    f.send(new OverlayMessage.Output(1, i % 3, 1, ("line " + i + "\n").getBytes()));
                }
                f.send(new OverlayMessage.RankExited(1, 0, 0, ""));
                f.finish(5000);
                List<String> lines = new ArrayList<>();
                int frames = 0;
                while (true) {
                    OverlayMessage m = down.receive();
                    frames++;
                    if (m instanceof OverlayMessage.RankExited) {
                        break;
                    }
                    List<OverlayMessage.Output> got = switch (m) {
                        case OverlayMessage.OutputBatch b -> b.chunks();
                        case OverlayMessage.Output o -> List.of(o);
                        default -> throw new AssertionError("unexpected " + m);
                    };
                    for (OverlayMessage.Output o : got) {
                        lines.add(new String(o.data()).strip());
                    }
                }
                assertThat(lines).hasSize(chunks);
                for (int i = 0; i < chunks; i++) {
                    assertThat(lines.get(i)).isEqualTo("line " + i);
                }
                assertThat(frames).as("queued chunks leave together").isLessThan(chunks);
                up.close();
            }
        }
    }

    @Test
    void overAnInMemoryLinkEachMessageGoesOnTheSendersThreadInOrder() throws Exception {
        FrameChannel[] link = FrameChannel.pair();
        List<OverlayMessage> got = new ArrayList<>();
        List<Thread> on = new ArrayList<>();
        link[1].serve("unused", new FrameChannel.Reader() {
            @Override
            public void message(OverlayMessage m) {
                got.add(m);
                on.add(Thread.currentThread());
            }

            @Override
            public void ended(java.io.IOException why) {}
        });
        UpstreamForwarder f = new UpstreamForwarder(link[0]);
        for (int i = 0; i < 100; i++) {
            f.send(new OverlayMessage.Output(1, 0, 1, ("line " + i + "\n").getBytes()));
        }
        f.send(new OverlayMessage.RankExited(1, 0, 0, ""));
        assertThat(got).hasSize(101).last().isInstanceOf(OverlayMessage.RankExited.class);
        assertThat(new String(((OverlayMessage.Output) got.get(42)).data())).isEqualTo("line 42\n");
        assertThat(on).containsOnly(Thread.currentThread());
        f.finish(1000);
        link[0].close();
        f.send(new OverlayMessage.RankExited(1, 1, 0, "")); // the parent gone: dropped, no exception
        assertThat(got).hasSize(101);
    }
}
