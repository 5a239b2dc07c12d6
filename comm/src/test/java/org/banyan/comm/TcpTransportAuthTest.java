package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A stranger who connects to a rank's TCP port (it once took any connection as a peer rank)
 * is closed before a byte of its is taken as a message; a rank of the job gets through.
 */
class TcpTransportAuthTest {
    private static Endpoints endpoints(Map<String, String> kv, int rank, byte[] secret) {
        return new Endpoints() {
            @Override
            public void publish(String key, String value) {
                kv.put(rank + "/" + key, value);
            }

            @Override
            public void exchange() {}

            @Override
            public String lookup(int owner, String key) {
                return kv.get(owner + "/" + key);
            }

            @Override
            public String host(int of) {
                return "host" + of;
            }

            @Override
            public byte[] secret() {
                return secret;
            }
        };
    }

    @Test
    void aConnectionWithoutTheProofIsClosedUnreadAndARankGetsThrough() throws Exception {
        Map<String, String> kv = new ConcurrentHashMap<>();
        TcpTransport zero = new TcpTransport(0, endpoints(kv, 0, LocalJob.SECRET), "127.0.0.1", LocalJob.SECRET);
        String[] where = kv.get("0/" + TcpTransport.KEY).split(":");
        Matcher matcher = new Matcher();
        try (Socket stranger = new Socket(where[0], Integer.parseInt(where[1]))) {
            OutputStream out = stranger.getOutputStream();
            out.write(new byte[] {0, 0, 0, 1}); // "rank 1"
            out.write(new byte[16 + 32]); // a guessed proof
            out.write(new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0}); // and a message
            out.flush();
            stranger.setSoTimeout(50);
            boolean closed = false;
            for (int i = 0; i < 200 && !closed; i++) {
                zero.poll(matcher);
                try {
                    closed = stranger.getInputStream().read() < 0;
                } catch (java.net.SocketTimeoutException e) {
                    // still open
                } catch (java.io.IOException e) {
                    closed = true;
                }
            }
            assertThat(closed).as("the stranger's connection was closed").isTrue();
        }
        assertThat(matcher.probe(0, Comm.ANY_SOURCE, Comm.ANY_TAG)).as("nothing arrived").isNull();
        zero.close();
    }

    /** A connection that never says anything is closed after a while, so strangers' silent connections cannot pile up. */
    @Test
    void aSilentConnectionIsClosedAfterItsTime() throws Exception {
        Map<String, String> kv = new ConcurrentHashMap<>();
        TcpTransport zero = new TcpTransport(0, endpoints(kv, 0, LocalJob.SECRET), "127.0.0.1", LocalJob.SECRET);
        zero.nameNanos = 300_000_000L;
        String[] where = kv.get("0/" + TcpTransport.KEY).split(":");
        Matcher matcher = new Matcher();
        try (Socket silent = new Socket(where[0], Integer.parseInt(where[1]))) {
            silent.setSoTimeout(50);
            boolean closed = false;
            for (int i = 0; i < 100 && !closed; i++) {
                zero.poll(matcher);
                try {
                    closed = silent.getInputStream().read() < 0;
                } catch (java.net.SocketTimeoutException e) {
                    // still open
                } catch (java.io.IOException e) {
                    closed = true;
                }
            }
            assertThat(closed).as("the silent connection was closed").isTrue();
        }
        zero.close();
    }
    /**
     * A rank whose peers all share its memory looks at its sockets one round in 256: strangers
     * are still dealt with (a spinning rank makes hundreds of thousands of rounds a second).
     */
    @Test
    void aTransportNoPeerNeedsStillClosesASilentConnection() throws Exception {
        Map<String, String> kv = new ConcurrentHashMap<>();
        TcpTransport zero = new TcpTransport(0, endpoints(kv, 0, LocalJob.SECRET), "127.0.0.1", LocalJob.SECRET);
        zero.carriesPeers(false);
        zero.nameNanos = 300_000_000L;
        String[] where = kv.get("0/" + TcpTransport.KEY).split(":");
        Matcher matcher = new Matcher();
        try (Socket silent = new Socket(where[0], Integer.parseInt(where[1]))) {
            silent.setSoTimeout(50);
            boolean closed = false;
            for (int i = 0; i < 100 && !closed; i++) {
                for (int round = 0; round < 256; round++) {
                    zero.poll(matcher);
                }
                try {
                    closed = silent.getInputStream().read() < 0;
                } catch (java.net.SocketTimeoutException e) {
                    // still open
                } catch (java.io.IOException e) {
                    closed = true;
                }
            }
            assertThat(closed).as("the silent connection was closed").isTrue();
        }
        zero.close();
    }
}
