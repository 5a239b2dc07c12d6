package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.Test;

/**
 * A DVM's messages for one client, written off the DVM's loop: queuing never blocks, a client
 * that stops reading is said to be behind and, once it has read, to have caught up; one that
 * leaves too much unread is refused more.
 */
class ClientOutboxTest {
    @Test
    void aClientThatStopsReadingNeverBlocksTheSenderAndCatchesUpWhenItReads() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket reader = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket dvmSide = server.accept()) {
            List<Boolean> told = new CopyOnWriteArrayList<>();
            ClientOutbox out = new ClientOutbox(new ClientChannel(dvmSide), 1, 32L << 20, told::add);
            byte[] chunk = new byte[64 << 10];
            long t0 = System.nanoTime();
            int offered = 0;
            while (out.offer(new ClientMessage.JobOutput(1, 0, 1, chunk))) {
                offered++;
            }
            assertThat((System.nanoTime() - t0) / 1_000_000).as("queuing never waited for the reader").isLessThan(10_000);
            assertThat(offered).as("the limit, and what the socket's buffers took, with nothing read").isBetween(500, 1200);
            assertThat(told).containsExactly(true);
            DataInputStream in = new DataInputStream(reader.getInputStream());
            long frames = 0;
            while (frames < offered) { // every frame, whole and in order
                int length = in.readInt();
                in.skipNBytes(length);
                frames++;
            }
            for (int i = 0; i < 100 && told.size() < 2; i++) {
                Thread.sleep(20);
            }
            assertThat(told).containsExactly(true, false);
            assertThat(out.unsent()).isZero();
            assertThat(out.giveUp()).isTrue();
            assertThat(out.giveUp()).as("once").isFalse();
            assertThat(out.offer(new ClientMessage.Closing("x"))).as("nothing more once given up").isFalse();
        }
    }

    /** Many clients that stopped reading, each within its own limit, are not let to fill the DVM's memory together. */
    @Test
    void clientsOverTheirCommonLimitGiveUpTheOneFurthestBehind() throws Exception {
        java.util.Map<Integer, ClientOutbox> all = new java.util.HashMap<>();
        List<AutoCloseable> sockets = new java.util.ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 3, InetAddress.getLoopbackAddress())) {
            int[] megabytes = {1, 48, 24}; // each socket's buffers take some: up to 10 MB leaves the order and the sums below
            for (int c = 0; c < 3; c++) {
                Socket reader = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket dvmSide = server.accept();
                sockets.add(reader);
                sockets.add(dvmSide);
                ClientOutbox out = new ClientOutbox(new ClientChannel(dvmSide), c, 64L << 20, behind -> { });
                for (int i = 0; i < megabytes[c] * 16; i++) {
                    assertThat(out.offer(new ClientMessage.JobOutput(1, 0, 1, new byte[64 << 10]))).isTrue();
                }
                all.put(c, out);
            }
            Thread.sleep(200); // what the sockets' buffers take
            assertThat(ClientOutbox.furthestBehind(all, 100L << 20)).as("within their common limit").isNull();
            assertThat(ClientOutbox.furthestBehind(all, 30L << 20)).isEqualTo(1);
            all.get(1).giveUp();
            assertThat(ClientOutbox.furthestBehind(all, 30L << 20)).as("one given up counts no more").isNull();
        } finally {
            all.values().forEach(ClientOutbox::close);
            for (AutoCloseable s : sockets) {
                s.close();
            }
        }
    }

    /** All clients are looked at once per megabyte offered to a client behind, not on each send. */
    @Test
    void theCommonLimitIsCheckedOncePerMegabyteOfferedToAClientBehind() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket reader = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket dvmSide = server.accept()) {
            ClientOutbox out = new ClientOutbox(new ClientChannel(dvmSide), 0, 64L << 20, behind -> { });
            try {
                int due = 0;
                int offers = 0;
                while (!out.isBehind() || offers < 200) {
                    assertThat(out.offer(new ClientMessage.JobOutput(1, 0, 1, new byte[16 << 10]))).isTrue();
                    offers++;
                    if (out.commonCheckDue()) {
                        assertThat(out.isBehind()).as("only a client behind").isTrue();
                        due++;
                    }
                }
                assertThat(out.isBehind()).isTrue();
                assertThat(due).as("%d offers of 16 KiB", offers).isBetween(1, offers / 64 + 1);
                assertThat(out.commonCheckDue()).as("none right after one").isFalse();
            } finally {
                out.close();
            }
        }
    }

    /**
     * What a stopping DVM drains reaches the client before the connection closes, however slow
     * the socket takes the last flush: a 2-rank task's final state was lost at {@code banyan dvm
     * stop} (its submit read "lost the pilot"), the frame counted as sent once buffered.
     */
    @Test
    void aDrainWaitsForTheLastFlushBeforeTheConnectionCloses() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket reader = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket dvmSide = server.accept()) {
            ClientOutbox out = new ClientOutbox(new ClientChannel(new SlowSocket(dvmSide)), 1, 1L << 20, behind -> { });
            assertThat(out.offer(new ClientMessage.Closing("it was stopped"))).isTrue();
            Thread.sleep(50); // the writer has the frame in its buffer, and is in the slow flush
            out.drain(System.nanoTime() + 5_000_000_000L);
            out.close();
            DataInputStream in = new DataInputStream(reader.getInputStream());
            int length = in.readInt();
            assertThat(in.readNBytes(length)).hasSize(length);
        }
    }

    /** A connected socket whose stream takes 300 ms before each write reaches it. */
    private static final class SlowSocket extends Socket {
        private final Socket socket;

        SlowSocket(Socket socket) {
            this.socket = socket;
        }

        @Override
        public void setTcpNoDelay(boolean on) throws java.net.SocketException {
            socket.setTcpNoDelay(on);
        }

        @Override
        public java.io.InputStream getInputStream() throws java.io.IOException {
            return socket.getInputStream();
        }

        @Override
        public java.io.OutputStream getOutputStream() throws java.io.IOException {
            java.io.OutputStream raw = socket.getOutputStream();
            return new java.io.FilterOutputStream(raw) {
                @Override
                public void write(byte[] b, int off, int len) throws java.io.IOException {
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    raw.write(b, off, len);
                }
            };
        }

        @Override
        public synchronized void close() throws java.io.IOException {
            socket.close();
        }
    }
}
