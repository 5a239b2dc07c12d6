package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** The suite with every rank on a host of its own: all messages go over TCP. */
class TcpTransportTest extends TransportSuite {
    @Override
    IntFunction<String> hosts() {
        return r -> "host" + r;
    }

    @Override
    Map<String, String> env() {
        return Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1");
    }

    @Override
    Class<? extends Transport> transport() {
        return TcpTransport.class;
    }

    /**
     * Large heap messages to more peers than the rank's budget of 2 MiB send buffers covers
     * (sixteen): the later connections stage through 256 KiB buffers, and every byte arrives.
     */
    @Test
    void largeHeapMessagesToMorePeersThanTheStagingBudgetCoversArriveWhole() throws Exception {
        int n = (int) (TcpTransport.STAGING_BUDGET / TcpTransport.STAGING) + 3;
        int bytes = TcpTransport.CHUNK + 4_321;
        List<Boolean> ok = LocalJob.run(n, hosts(), env(), world -> {
            if (world.rank() == 0) {
                Request[] sends = new Request[n - 1];
                for (int peer = 1; peer < n; peer++) {
                    byte[] data = new byte[bytes];
                    java.util.Arrays.fill(data, (byte) peer);
                    data[bytes - 1] = (byte) -peer;
                    sends[peer - 1] = world.isend(java.lang.foreign.MemorySegment.ofArray(data), peer, 3);
                }
                Request.awaitAll(List.of(sends));
                return true;
            }
            byte[] got = new byte[bytes];
            world.recv(got, 0, 3);
            for (int i = 0; i < bytes - 1; i++) {
                if (got[i] != (byte) world.rank()) {
                    return false;
                }
            }
            return got[bytes - 1] == (byte) -world.rank();
        });
        assertThat(ok).containsOnly(true).hasSize(n);
    }
}
