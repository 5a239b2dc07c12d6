package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class LoopbackPeersTest {
    @Test
    void thePeerOfALoopbackConnectionIsThisUser() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            InetSocketAddress peer = (InetSocketAddress) accepted.getRemoteSocketAddress();
            assertThat(LoopbackPeers.uidOf(peer)).isEqualTo(LoopbackPeers.ownUid()).isNotEqualTo(LoopbackPeers.UNKNOWN);
            assertThat(LoopbackPeers.isOwnUser(peer)).isTrue();
            assertThat(LoopbackPeers.uidOf(new InetSocketAddress(InetAddress.getLoopbackAddress(), 1))).isEqualTo(LoopbackPeers.UNKNOWN);
        }
    }

    @Test
    void addressesAreWrittenAsTheKernelWritesThem() throws Exception {
        assertThat(LoopbackPeers.kernelForm(InetAddress.getByName("127.0.0.1"))).isEqualTo("0100007F");
        assertThat(LoopbackPeers.kernelForm(InetAddress.getByName("::1"))).isEqualTo("00000000000000000000000001000000");
    }
}
