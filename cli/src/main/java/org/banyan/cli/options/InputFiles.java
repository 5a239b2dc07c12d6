package org.banyan.cli.options;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Text files the user names on the command line, read so that a wrong name cannot hang or
 * exhaust banyan: small ones (hostfiles, appfiles, rankfiles, workload set-ups) at most {@link
 * #LIMIT} bytes ({@code /dev/zero}, a log file given by mistake), ones that may be large (workload
 * traces, traffic matrices, topologies: {@link #largeText}) at most {@link #heapBound()}; a regular
 * file over its bound is refused by its size before it is read. Text only (a binary file is named
 * as such, not reported as a decoder's "Input length = 1"). A pipe (a shell's {@code <(...)}) is
 * read like a file, within {@link #PIPE_WAIT_SECONDS}: a named pipe nobody writes to would
 * otherwise hang banyan.
 */
public final class InputFiles {
    /** A hostfile of 100,000 hosts is about 2 MiB. */
    static final int LIMIT = 16 << 20;
    /** How long a file that is not a regular one (a pipe, a device) may take to give all it has. */
    public static final int PIPE_WAIT_SECONDS = 10;

    private InputFiles() {}

    /**
     * The file's lines.
     *
     * @param what how the message names the file, e.g. {@code "hostfile"} or {@code "--app"}
     */
    public static List<String> lines(Path file, String what) throws UsageException {
        return text(file, what).lines().toList();
    }

    public static String text(Path file, String what) throws UsageException {
        return text(file, what, LIMIT, "is it the right file?");
    }

    /**
     * A bound for the inputs that may be large (workload traces, task files, traffic matrices):
     * they are held whole, so a quarter of this command's heap, and no more than one array holds.
     */
    public static long heapBound() {
        return Math.min(Integer.MAX_VALUE - 16, Runtime.getRuntime().maxMemory() / 4);
    }

    /** A file that may be large: at most {@link #heapBound()} bytes. */
    public static String largeText(Path file, String what) throws UsageException {
        return text(file, what, heapBound(), "a quarter of this command's memory");
    }

    static String text(Path file, String what, long limit, String why) throws UsageException {
        String named = what + " '" + org.banyan.pmix.RawPaths.shown(file) + "'";
        if (Files.isDirectory(file)) {
            throw new UsageException(named + " is a directory");
        }
        String tooLong = named + " is longer than " + (limit >> 20) + " MiB (" + why + ")";
        try {
            if (Files.isRegularFile(file) && Files.size(file) > limit) {
                throw new UsageException(tooLong); // by its size, before a byte of it is read
            }
        } catch (IOException e) {
            throw new UsageException(named + ": " + e.getMessage());
        }
        byte[] bytes = Files.isRegularFile(file) || !Files.exists(file) ? read(file, named, limit) : readWithin(file, named, limit);
        if (bytes.length > limit) {
            throw new UsageException(tooLong);
        }
        return new String(bytes, StandardCharsets.UTF_8); // readText checked every byte, its end included
    }

    private static byte[] read(Path file, String named, long limit) throws UsageException {
        try (InputStream in = Files.newInputStream(file)) {
            return readText(in, named, Math.min(Integer.MAX_VALUE - 16, limit + 1));
        } catch (NoSuchFileException e) {
            throw new UsageException(named + ": no such file");
        } catch (IOException e) {
            throw new UsageException(named + ": " + e.getMessage());
        }
    }

    /** How much is read and checked at a time. */
    private static final int CHUNK = 1 << 20;

    /**
     * At most {@code most} bytes, checked as they come: a NUL byte or bytes that are not UTF-8
     * end the read at once, so that {@code /dev/zero} or {@code /dev/urandom} named by mistake is
     * refused after a chunk, not after a quarter of the heap (10 s of a kernel's zeros here). At
     * the end of the input, a character left unfinished is refused too; at {@code most}, the
     * caller refuses the input as too long.
     */
    public static byte[] readText(InputStream in, String named, long most) throws IOException, UsageException {
        List<byte[]> chunks = new java.util.ArrayList<>();
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer pending = ByteBuffer.allocate(8); // what a chunk left of a character, then the next chunk
        java.nio.CharBuffer sink = java.nio.CharBuffer.allocate(8); // never empty: decoding into no room never ends
        long total = 0;
        int line = 1;
        while (total < most) {
            int want = (int) Math.min(CHUNK, most - total);
            byte[] c = in.readNBytes(want);
            for (byte b : c) {
                if (b == 0) {
                    throw new UsageException(named + " is not text: line " + line + " has a NUL byte");
                }
                line += b == '\n' ? 1 : 0;
            }
            chunks.add(c);
            total += c.length;
            if (pending.remaining() < c.length) { // sized by what was read: a hostfile of 40 bytes takes no MiB buffers
                pending = ByteBuffer.allocate(pending.position() + c.length + 8).put(pending.flip());
                sink = java.nio.CharBuffer.allocate(pending.capacity());
            }
            pending.put(c).flip();
            boolean end = c.length < want;
            java.nio.charset.CoderResult r;
            do {
                sink.clear();
                r = decoder.decode(pending, sink, end);
            } while (r.isOverflow());
            if (r.isError()) {
                throw new UsageException(named + " is not text: line " + lineOfFirstBadByte(joined(chunks, total)) + " is not UTF-8");
            }
            pending.compact();
            if (end) {
                break;
            }
        }
        return joined(chunks, total);
    }

    private static byte[] joined(List<byte[]> chunks, long total) {
        if (chunks.size() == 1) {
            return chunks.getFirst();
        }
        byte[] all = new byte[(int) total];
        int at = 0;
        for (byte[] c : chunks) {
            System.arraycopy(c, 0, all, at, c.length);
            at += c.length;
        }
        return all;
    }

    /** A pipe or a device, read on a thread of its own: opening a fifo with no writer never returns. */
    private static byte[] readWithin(Path file, String named, long limit) throws UsageException {
        java.util.concurrent.CompletableFuture<Object> got = new java.util.concurrent.CompletableFuture<>();
        Thread.ofPlatform().daemon().name("read-" + file.getFileName()).start(() -> {
            try {
                got.complete(read(file, named, limit));
            } catch (UsageException e) {
                got.complete(e);
            }
        });
        Object r;
        try {
            r = got.get(PIPE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new UsageException(named + " gave no end of file within " + PIPE_WAIT_SECONDS
                    + " s (a named pipe nobody writes to?)");
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new UsageException(named + ": " + e.getMessage());
        }
        if (r instanceof UsageException u) {
            throw u;
        }
        return (byte[]) r;
    }

    private static int lineOfFirstBadByte(byte[] bytes) {
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        int line = 1;
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                try {
                    decoder.reset().decode(ByteBuffer.wrap(bytes, start, i - start));
                } catch (CharacterCodingException e) {
                    return line;
                }
                line++;
                start = i + 1;
            }
        }
        return line;
    }
}
