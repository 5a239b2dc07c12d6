package org.banyan.comm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The memory of a shared window (MPI_Win_allocate_shared): one file in /dev/shm holding every
 * rank's part one after the other (each starting at a multiple of 64 bytes), made by the
 * communicator's rank 0, mapped by every rank, and unlinked once all have mapped it, so nothing
 * is left whatever happens later. Readable and writable by the owner alone, as the transports'.
 */
record SharedWindowMemory(Arena arena, MemorySegment whole, long[] offsets, long[] sizes) {
    private static final int PATH_BYTES = 512;
    private static final int ALIGN = 64;

    /** Maps the window's memory on every rank of {@code comm}, which must all be on one host; {@code bytes} this rank's part. Collective. */
    static SharedWindowMemory allocate(Comm comm, long bytes) {
        long[] sizes = new long[comm.size()];
        comm.allgather(new long[] {bytes}, sizes); // first: every rank then refuses what one gave, not that one alone
        for (int r = 0; r < sizes.length; r++) {
            if (sizes[r] < 0) {
                throw new IllegalArgumentException("allocateShared: rank " + r + " asked for " + sizes[r] + " bytes");
            }
        }
        int[] hosts = new int[comm.size()];
        for (int r = 0; r < hosts.length; r++) {
            hosts[r] = comm.engine.hostOf[comm.group[r]];
            if (hosts[r] != hosts[0]) {
                throw new IllegalArgumentException("allocateShared: ranks 0 and " + r + " of " + comm.name()
                        + " are on different hosts; make the window on comm.splitShared(key)");
            }
        }
        long[] offsets = new long[sizes.length];
        long total = 0;
        for (int r = 0; r < sizes.length; r++) {
            offsets[r] = total;
            if (sizes[r] > Long.MAX_VALUE / 2 - total) { // every rank has every size: each refuses alike
                throw new IllegalArgumentException("allocateShared: the ranks' parts add up to more than any memory holds");
            }
            total += (sizes[r] + ALIGN - 1) / ALIGN * ALIGN;
        }
        total = Math.max(total, ALIGN);
        Arena arena = Arena.ofShared();
        byte[] named = new byte[PATH_BYTES]; // the file's path, or a reason it could not be made after a 0 byte
        Path file = null;
        String failure = null;
        if (comm.rank() == 0) {
            // named as the rank guard sweeps (banyan-PID-*.shm), as the transport's rings
            file = Path.of("/dev/shm", "banyan-" + ProcessHandle.current().pid() + "-window-"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".shm");
            try {
                long free = Files.getFileStore(Path.of("/dev/shm")).getUsableSpace();
                if (total > free) {
                    throw new IOException("/dev/shm has " + free + " bytes free, the window needs " + total);
                }
                try (FileChannel ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")))) {
                    ch.truncate(total);
                    ch.write(java.nio.ByteBuffer.allocate(1), total - 1);
                }
                byte[] p = file.toString().getBytes(StandardCharsets.UTF_8);
                System.arraycopy(p, 0, named, 0, p.length);
            } catch (IOException e) {
                failure = "cannot make the shared window's memory " + file + ": " + e.getMessage();
                byte[] p = failure.getBytes(StandardCharsets.UTF_8);
                System.arraycopy(p, 0, named, 1, Math.min(p.length, PATH_BYTES - 1));
                deleteQuietly(file);
            }
        }
        comm.bcast(named, 0);
        if (named[0] == 0) {
            arena.close();
            throw new CommException(failure != null ? failure
                    : new String(named, 1, PATH_BYTES - 1, StandardCharsets.UTF_8).replace("\0", "") + " (on rank 0)");
        }
        Path path = Path.of(new String(named, StandardCharsets.UTF_8).replace("\0", ""));
        MemorySegment whole;
        String mapped = "";
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            whole = ch.map(FileChannel.MapMode.READ_WRITE, 0, total, arena);
        } catch (IOException e) {
            whole = null;
            mapped = e.getMessage();
        }
        int[] failed = new int[1];
        comm.allreduce(new int[] {whole == null ? 1 : 0}, failed, Op.MAX); // every rank mapped it (or one could not): then unlink
        if (comm.rank() == 0) {
            deleteQuietly(path);
        }
        if (failed[0] != 0) {
            arena.close();
            throw new CommException("a rank of " + comm.name() + " could not map the shared window's memory" + (whole == null
                    ? ": " + mapped : ""));
        }
        return new SharedWindowMemory(arena, whole, offsets, sizes);
    }

    /** Rank {@code r}'s part. */
    MemorySegment of(int r) {
        return whole.asSlice(offsets[r], sizes[r]);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // it goes with /dev/shm's next clean-up; the mappings work either way
        }
    }
}
