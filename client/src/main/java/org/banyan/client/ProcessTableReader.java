package org.banyan.client;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the daemon's node-local process table in place (memory-mapped), following the layout
 * documented by Banyan's {@code org.banyan.core.job.ProcessTable}: a 64-byte header, 32 bytes
 * per rank, then host names; little-endian. The client shares no code with the daemon, only
 * that layout.
 */
final class ProcessTableReader {
    private static final int MAGIC = 0x5459_4E42;
    private static final int HEADER = 64;
    private static final int RECORD = 32;

    private final MappedByteBuffer map;
    private final int size;
    private final String[] hosts;

    ProcessTableReader(Path path) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        } catch (IOException e) {
            throw new BanyanException("cannot read the process table " + path + ": " + e.getMessage(), e);
        }
        map.order(ByteOrder.LITTLE_ENDIAN);
        if (map.capacity() < HEADER || map.getInt(0) != MAGIC || map.getInt(4) != 1) {
            throw new BanyanException(path + " is not a Banyan process table (version 1)");
        }
        size = map.getInt(12);
        if (map.getInt(20) != size) {
            throw new BanyanException(path + " is incomplete: " + map.getInt(20) + " of " + size + " ranks");
        }
        hosts = new String[map.getInt(16)];
        int p = map.getInt(24);
        for (int i = 0; i < hosts.length; i++) {
            int n = map.getShort(p) & 0xFFFF;
            byte[] b = new byte[n];
            map.get(p + 2, b);
            hosts[i] = new String(b, StandardCharsets.UTF_8);
            p += 2 + n;
        }
    }

    Peer peer(int rank) {
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is not in the job (size " + size + ")");
        }
        int at = HEADER + RECORD * rank;
        int node = map.getInt(at + 4);
        return new Peer(map.getInt(at), hosts[node], node, map.getInt(at + 8), map.getInt(at + 12), map.getInt(at + 16),
                map.getInt(at + 20), map.getInt(at + 24));
    }
}
