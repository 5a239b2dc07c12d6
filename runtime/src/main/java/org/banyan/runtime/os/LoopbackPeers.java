package org.banyan.runtime.os;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who is at the other end of a TCP connection on this host: the kernel lists every socket of
 * the network namespace with its owner's uid in {@code /proc/net/tcp} and {@code tcp6}, so the
 * peer of an accepted loopback connection is the line whose local end is the peer's address.
 * It is what SO_PEERCRED gives on a Unix socket, for the TCP ports MPICH's PMI clients can
 * only speak ({@code PMI_PORT} is {@code host:port}).
 */
public final class LoopbackPeers {
    /** The uid of no one: the peer's socket is not in the table (it closed meanwhile). */
    public static final int UNKNOWN = -1;

    private static final int OWN_UID = ownUid();

    private LoopbackPeers() {}

    /** This process's uid. */
    public static int ownUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** Whether the process at {@code peer} (a connection accepted on this host) runs as this process's user. */
    public static boolean isOwnUser(InetSocketAddress peer) {
        return OWN_UID != UNKNOWN && uidOf(peer) == OWN_UID;
    }

    /**
     * The uid owning the socket whose local end is {@code peer}, or {@link #UNKNOWN}. The JVM's
     * sockets are IPv6 ones that also take IPv4, so an IPv4 peer may be listed in {@code tcp6},
     * as an IPv4-mapped address, as well as in {@code tcp}.
     */
    public static int uidOf(InetSocketAddress peer) {
        // The kernel lists the table a page at a time, so a line can be missed while other
        // sockets come and go between two reads (seen once in 120 quick clients started at once).
        int uid = UNKNOWN;
        for (int attempt = 0; attempt < 3 && uid == UNKNOWN; attempt++) {
            uid = uidOnce(peer);
        }
        return uid;
    }

    private static int uidOnce(InetSocketAddress peer) {
        String port = ":" + String.format("%04X", peer.getPort());
        if (peer.getAddress() instanceof Inet4Address) {
            String v4 = kernelForm(peer.getAddress());
            int uid = uidIn(Path.of("/proc/net/tcp"), v4 + port);
            return uid != UNKNOWN ? uid : uidIn(Path.of("/proc/net/tcp6"), "0000000000000000FFFF0000" + v4 + port);
        }
        return uidIn(Path.of("/proc/net/tcp6"), kernelForm(peer.getAddress()) + port);
    }

    private static int uidIn(Path table, String local) {
        try {
            for (String line : Files.readAllLines(table, StandardCharsets.US_ASCII)) {
                String[] f = line.strip().split("\\s+");
                if (f.length > 7 && f[1].equals(local)) {
                    return Integer.parseInt(f[7]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return UNKNOWN;
        }
        return UNKNOWN;
    }

    /** An address as the kernel prints it: each 32-bit word in host (little-endian) order, in hex. */
    static String kernelForm(InetAddress address) {
        byte[] b = address.getAddress();
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (int word = 0; word < b.length; word += 4) {
            for (int i = 3; i >= 0; i--) {
                sb.append(String.format("%02X", b[word + i] & 0xFF));
            }
        }
        return sb.toString();
    }
}
