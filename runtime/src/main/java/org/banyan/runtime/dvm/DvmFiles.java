package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * Where a DVM says how to reach it: the URI file ({@code tcp://HOST:PORT} on its first line, the
 * head's pid on the second), the secret next to it (a random 256-bit value in hex, mode 0600:
 * whoever can read it may use the DVM), and the head's log. By default
 * {@code $HOME/.banyan/dvm.uri}, {@code dvm.uri.secret} and {@code dvm.uri.log}.
 *
 * @param uri the URI file; the others are named after it
 */
public record DvmFiles(Path uri) {
    public static DvmFiles defaultFor(String home) {
        return new DvmFiles(Path.of(home, ".banyan", "dvm.uri"));
    }

    public Path secret() {
        return uri.resolveSibling(uri.getFileName() + ".secret");
    }

    public Path log() {
        return uri.resolveSibling(uri.getFileName() + ".log");
    }

    /** A new random secret. */
    public static String newSecret() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Writes the secret (0600, created so), then the URI file: a URI file means a DVM ready to serve. */
    public void publish(String address, long pid, String secret) throws IOException {
        Files.createDirectories(uri.toAbsolutePath().getParent());
        Files.deleteIfExists(secret());
        Files.createFile(secret(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(secret(), secret + "\n", StandardOpenOption.TRUNCATE_EXISTING);
        Path tmp = uri.resolveSibling(uri.getFileName() + ".tmp");
        Files.writeString(tmp, "tcp://" + address + "\n" + pid + "\n");
        Files.move(tmp, uri, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Removes the URI and secret files, if they are this DVM's ({@code pid}). */
    public void withdraw(long pid) {
        try {
            Contact c = read();
            if (c.pid() == pid) {
                Files.deleteIfExists(uri);
                Files.deleteIfExists(secret());
            }
        } catch (IOException e) {
            // gone already, or another DVM's now
        }
    }

    /** What a client needs: the head's address, its pid, and the secret. */
    public record Contact(String address, long pid, String secret) {}

    /**
     * Reads the contact.
     *
     * @throws IOException with a message fit for the user when a file is missing or malformed
     */
    public Contact read() throws IOException {
        if (!Files.isRegularFile(uri)) {
            throw new IOException("no DVM at " + uri + " (start one with 'banyan dvm start')");
        }
        String text = small(uri);
        List<String> lines = text == null ? List.of() : text.lines().toList();
        if (lines.size() < 2 || !lines.get(0).startsWith("tcp://")) {
            throw new IOException(uri + " is not a DVM URI file");
        }
        long pid;
        try {
            pid = Long.parseLong(lines.get(1).strip());
        } catch (NumberFormatException e) {
            throw new IOException(uri + " is not a DVM URI file");
        }
        String secret;
        try {
            if (!Files.isRegularFile(secret())) { // a fifo there would hold the command for ever
                throw new IOException("not a file");
            }
            secret = small(secret());
        } catch (IOException e) {
            throw new IOException("cannot read the DVM's secret " + secret() + ": " + e.getMessage());
        }
        if (secret == null) {
            throw new IOException("the DVM's secret " + secret() + " is not one (over " + SMALL + " bytes)");
        }
        return new Contact(lines.get(0).substring("tcp://".length()).strip(), pid, secret.strip());
    }

    /** What the URI and secret files hold at most: a few dozen bytes each. */
    static final int SMALL = 4096;

    /**
     * The text of a file that should be small, or null when it is not: {@code --dvm} given a
     * large file by mistake was read whole (a 3 GB one ended the command on an OutOfMemoryError
     * after 31 s), a binary one said only the decoder's "Input length = 1".
     */
    private static String small(Path file) throws IOException {
        byte[] bytes;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(SMALL + 1);
        }
        return bytes.length > SMALL ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Why a head that ended before it was ready did: the first thing its log says after
     * "starting" (a lost daemon and its reason, a file it could not write), or else the log's last
     * line; its path when there is no log.
     */
    public String whyItEnded() {
        List<String> lines;
        try {
            lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "see " + log();
        }
        String last = null;
        for (String line : lines) {
            java.util.regex.Matcher m = HEAD_LINE.matcher(line);
            if (m.matches() && !m.group(1).startsWith("starting ") && !m.group(1).equals("stopped")) {
                return m.group(1);
            }
            if (!line.isBlank()) {
                last = line.strip();
            }
        }
        return last != null ? last : "see " + log();
    }

    /** A line the head itself wrote to its log: {@code [TIME] banyan dvm: WHAT}. */
    private static final java.util.regex.Pattern HEAD_LINE = java.util.regex.Pattern.compile("\\[[^]]*] banyan dvm: (.*)");
}
