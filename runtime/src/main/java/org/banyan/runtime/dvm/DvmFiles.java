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
    /**
     * The variable that names a session's DVM, as FLUX_URI names a Flux instance: the URI file
     * that {@code run} (without --dvm), {@code submit}, {@code wait}, {@code cancel}, {@code dvm
     * start/status/stop/submit} and {@code dashboard} use when no --dvm is given.
     */
    public static final String VARIABLE = "BANYAN_DVM";

    /** The DVM {@link #VARIABLE} names (relative to {@code cwd}), else the one in {@code $HOME/.banyan}. */
    public static DvmFiles defaultFor(java.util.Map<String, String> environment, Path cwd) {
        String named = environment.get(VARIABLE);
        if (named != null && !named.isBlank()) {
            return new DvmFiles(cwd.resolve(named));
        }
        return defaultFor(environment.getOrDefault("HOME", System.getProperty("user.home")));
    }

    public static DvmFiles defaultFor(String home) {
        return new DvmFiles(Path.of(home, ".banyan", "dvm.uri"));
    }

    public Path secret() {
        return uri.resolveSibling(uri.getFileName() + ".secret");
    }

    /** The quick door's port ({@link QuickDoor}), readable by the owner only, as the secret. */
    public Path quick() {
        return uri.resolveSibling(uri.getFileName() + ".quick");
    }

    /** Writes the quick door's port (0600, created anew), after the URI file. */
    public void publishQuick(int port) throws IOException {
        Path tmp = uri.resolveSibling(uri.getFileName() + ".quick.tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, port + "\n", StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(tmp, quick(), java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
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
        makeDirectory();
        Files.deleteIfExists(quick()); // an ended DVM's: this one writes its own, if it has a quick door
        Files.deleteIfExists(secret());
        Files.createFile(secret(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(secret(), secret + "\n", StandardOpenOption.TRUNCATE_EXISTING);
        Path tmp = uri.resolveSibling(uri.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        // created anew (a link planted there is not followed), writable by its owner whatever the umask
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        Files.writeString(tmp, "tcp://" + address + "\n" + pid + "\n", StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(tmp, uri, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Removes the URI and secret files, if they are this DVM's ({@code pid}). */
    public void withdraw(long pid) {
        try {
            Contact c = read();
            if (c.pid() == pid) {
                Files.deleteIfExists(quick());
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
        String unsafe = unsafe();
        if (unsafe != null) {
            throw new IOException(unsafe);
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

    /** A mode's bits that let the group or others write. */
    private static final int GROUP_OTHERS_WRITE = 0022;
    /** A mode's bits that let the group or others read, write or search. */
    private static final int GROUP_OTHERS_ANY = 0077;
    private static final int STICKY = 01000;

    /**
     * Why another user could redirect this DVM's clients or use it, or null when nobody else
     * can: the directory must be writable by nobody else (or sticky, as /tmp, where only a file's
     * owner may replace it), the URI file ours and writable by nobody else, the secret ours and
     * readable by nobody else. A client reads the address from one file and sends the secret
     * from the other, so either file swapped by another user would have handed them the secret
     * (a group-writable project directory allows that); as ssh refuses keys others can read,
     * such files are refused, with the reason.
     */
    public String unsafe() {
        int me = org.banyan.runtime.os.LoopbackPeers.ownUid();
        if (me == org.banyan.runtime.os.LoopbackPeers.UNKNOWN) {
            return null; // no /proc to say who we are: nothing to compare with
        }
        try {
            String dir = unsafeDirectory(me);
            if (dir != null) {
                return dir;
            }
            if (Files.exists(uri)) {
                String uriWrong = notOurs(uri, me, GROUP_OTHERS_WRITE, "writable by others", "chmod go-w " + uri);
                if (uriWrong != null) {
                    return uriWrong;
                }
            }
            if (Files.isRegularFile(secret())) { // anything else is refused as no secret when read
                return notOurs(secret(), me, GROUP_OTHERS_ANY, "open to others",
                        "chmod go-rwx " + secret() + ", and if others may have read it, stop the DVM and start a new one");
            }
        } catch (IOException | RuntimeException e) {
            return null; // gone meanwhile: reading it says so
        }
        return null;
    }

    /**
     * Why another user could swap files in the directory of this DVM's files, or null: what a
     * new DVM is checked for (its files are made anew, so old ones do not matter).
     */
    public String unsafeDirectory() {
        int me = org.banyan.runtime.os.LoopbackPeers.ownUid();
        try {
            return me == org.banyan.runtime.os.LoopbackPeers.UNKNOWN ? null : unsafeDirectory(me);
        } catch (IOException | RuntimeException e) {
            return null; // gone meanwhile: making it says so
        }
    }

    private String unsafeDirectory(int me) throws IOException {
        Path dir = uri.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            return null; // made by banyan, for its owner only
        }
        int dirMode = (Integer) Files.getAttribute(dir, "unix:mode");
        int dirOwner = (Integer) Files.getAttribute(dir, "unix:uid");
        if (dirOwner != me && dirOwner != 0) {
            return "the DVM's directory " + dir + " belongs to another user (uid " + dirOwner + "), who could "
                    + "swap its files; keep a DVM's files in a directory of yours (the default is ~/.banyan)";
        }
        if ((dirMode & GROUP_OTHERS_WRITE) != 0 && (dirMode & STICKY) == 0) {
            return "the DVM's directory " + dir + " is writable by others (mode " + octal(dirMode) + "), who "
                    + "could swap its files; keep a DVM's files in a directory only you can write (the default "
                    + "is ~/.banyan), or chmod go-w " + dir;
        }
        return null;
    }

    /** Creates the directory of the DVM's files, as {@link #makeDirectory(Path)} does. */
    public void makeDirectory() throws IOException {
        makeDirectory(uri.toAbsolutePath().getParent());
    }

    /**
     * Creates {@code dir}, and any directory above it that is missing, writable by their owner
     * only whatever the umask (a umask of 002 made {@code ~/.banyan} group-writable, and a DVM's
     * clients refuse such a directory: {@link #unsafe()}). A directory already there is left as it is.
     */
    public static void makeDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        }
    }

    private static String notOurs(Path file, int me, int forbidden, String how, String remedy) throws IOException {
        int owner = (Integer) Files.getAttribute(file, "unix:uid");
        int mode = (Integer) Files.getAttribute(file, "unix:mode");
        if (owner != me) {
            return file + " belongs to another user (uid " + owner + "), not to you: refused, as it could send "
                    + "your DVM's secret elsewhere; remove it and start your DVM again";
        }
        if ((mode & forbidden) != 0) {
            return file + " is " + how + " (mode " + octal(mode) + "): refused; " + remedy;
        }
        return null;
    }

    private static String octal(int mode) {
        return String.format("%04o", mode & 07777);
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
