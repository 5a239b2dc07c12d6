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
final class ProcessTableReader implements ProcessTableLayout {
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
        if (map.capacity() < HEADER || map.getInt(AT_MAGIC) != MAGIC || map.getInt(AT_VERSION) != 1) {
            throw new BanyanException(path + " is not a Banyan process table (version 1)");
        }
        size = map.getInt(AT_SIZE);
        if (map.getInt(AT_FILLED) != size) {
            throw new BanyanException(path + " is incomplete: " + map.getInt(AT_FILLED) + " of " + size + " ranks");
        }
        hosts = new String[map.getInt(AT_NODES)];
        int p = map.getInt(AT_NAMES);
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
        int node = map.getInt(at + REC_NODE);
        return new Peer(map.getInt(at + REC_RANK), hosts[node], node, map.getInt(at + REC_LOCAL_RANK),
                map.getInt(at + REC_LOCAL_SIZE), map.getInt(at + REC_APPNUM), map.getInt(at + REC_BINDING),
                map.getInt(at + REC_BIND_COUNT));
    }
}
