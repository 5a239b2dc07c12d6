package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One file to put into a task's sandbox before it runs (input) or to take out of it after
 * (output), as RADICAL-Pilot's staging directives: {@code copy}, {@code link} (a symbolic link),
 * {@code move}, or {@code transfer} (RADICAL-Pilot's default, which moves a file between the
 * client's machine and the resource's; Banyan's sandboxes are on a file system the submitter
 * shares, so a transfer is a copy there, and its errors say so). A relative source of an input is relative to the submitter's directory; the
 * target of an input and the source of an output are relative to the sandbox.
 *
 * <p>Either end may instead name its place as RADICAL-Pilot's locations do:
 * {@code client:///p} (the submitter's directory), {@code task:///p} (the task's sandbox),
 * {@code session:///p} (the session's directory), {@code pilot:///p} (the directory of the
 * pilot the task ran on, SESSION/PILOT_UID) or {@code endpoint:///p} (the file system's root).
 * A target that names only a place ({@code task:///}) keeps the source's file name.
 */
public record Staging(String source, String target, Action action) {
    public enum Action { COPY, LINK, MOVE, TRANSFER }

    /** The places a location can name, for one task on one pilot. */
    record Places(Path client, Path task, Path session, Path pilot) {}

    private static final Pattern LOCATION = Pattern.compile("([a-z][a-z0-9+.-]*)://(.*)");
    private static final List<String> SCHEMES = List.of("client", "task", "session", "pilot", "endpoint");

    /** Refuses what no file system call could carry out: an empty source or target (the target "" was the sandbox itself). */
    public Staging {
        if (action == null) {
            throw new IllegalArgumentException("a staging directive needs an action (copy, link, move or transfer)");
        }
        for (String p : new String[] {source, target}) {
            if (p == null || p.isBlank() || p.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a staging directive needs a source and a target, each a path, got '"
                        + source + "' -> '" + target + "'");
            }
            Matcher m = LOCATION.matcher(p);
            if (m.matches() && !SCHEMES.contains(m.group(1))) {
                throw new IllegalArgumentException("'" + p + "': " + m.group(1) + ":// is not a place here (client://, task://, "
                        + "session://, pilot:// or endpoint://)");
            }
        }
        if (place(source).isEmpty()) {
            throw new IllegalArgumentException("the source '" + source + "' names a place, not a file in it");
        }
    }

    /** What follows a location's scheme, without leading slashes; the path itself if it has none. */
    private static String place(String p) {
        Matcher m = LOCATION.matcher(p);
        return m.matches() ? m.group(2).replaceFirst("^/+", "") : p;
    }

    /** Where {@code p} is: in the place its location names, else in {@code dflt}. */
    private static Path locate(String p, Path dflt, Places places) {
        Matcher m = LOCATION.matcher(p);
        if (!m.matches()) {
            return dflt.resolve(p);
        }
        Path dir = switch (m.group(1)) {
            case "client" -> places.client();
            case "task" -> places.task();
            case "session" -> places.session();
            case "pilot" -> places.pilot();
            default -> Path.of("/"); // endpoint
        };
        return dir.resolve(place(p));
    }

    private Path from(Path dflt, Places places) {
        return locate(source, dflt, places);
    }

    private Path to(Path dflt, Places places) {
        Path to = locate(target, dflt, places);
        // a place alone, or a path that ends with '/', names a directory: the source keeps its name in it
        return place(target).isEmpty() || target.endsWith("/") ? to.resolve(Path.of(place(source)).getFileName()) : to;
    }

    /**
     * Carries out the directive from {@code from} to {@code to}.
     *
     * @throws IOException saying what could not be done and why, in words for the task's failure
     *                     (it was the exception's class and a path: {@code java.nio.file.NoSuchFileException: /in.txt})
     */
    static void apply(Path from, Path to, Action action) throws IOException {
        try {
            // A target that is a directory takes a file into it, as cp, mv and ln do: a copy
            // replaced an empty directory with the file, and a full one failed. A directory is
            // copied onto it instead (the target is what the source becomes), so that staging it
            // again, for a task sent again, gives the same tree rather than one a level deeper.
            if (Files.isDirectory(to) && !Files.isDirectory(from) && from.getFileName() != null) {
                to = to.resolve(from.getFileName());
            }
            if (to.getParent() != null) {
                Files.createDirectories(to.getParent());
            }
            switch (action) {
                case COPY, TRANSFER -> copy(from, to);
                case LINK -> {
                    Files.deleteIfExists(to);
                    Files.createSymbolicLink(to, from.toAbsolutePath());
                }
                case MOVE -> move(from, to);
            }
        } catch (IOException e) {
            String which = e instanceof java.nio.file.FileSystemException f && f.getFile() != null ? ": " + f.getFile() : "";
            String verb = action == Action.TRANSFER ? "transfer (copy on the shared file system)"
                    : action.name().toLowerCase(java.util.Locale.ROOT);
            throw new IOException("cannot " + verb + " " + from + " to " + to
                    + " (" + org.banyan.runtime.os.FileErrors.reason(e) + which + ")", e);
        }
    }

    /**
     * Copies a file, or a directory with everything in it (as {@code cp -rH}: a link named as the
     * source is followed, links within it are copied as links). A directory was copied alone,
     * empty: the task found none of its files.
     */
    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        // the walk does not follow links, and a link at its start was copied as the link
        Path root = from.toRealPath();
        if (realOrNearest(to).startsWith(root)) {
            throw new java.nio.file.FileSystemException(from.toString(), to.toString(), "a directory into itself");
        }
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a)
                    throws IOException {
                Files.createDirectories(to.resolve(root.relativize(dir)));
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a)
                    throws IOException {
                Files.copy(file, to.resolve(root.relativize(file)), StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.LinkOption.NOFOLLOW_LINKS);
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Where {@code p} is once links are resolved: its real path, or, while it does not exist yet,
     * its nearest existing ancestor's real path with the rest of it. A target reached through a
     * link into the source passed a check of the paths as written, and the copy walked into its
     * own output until a name grew too long.
     */
    private static Path realOrNearest(Path p) throws IOException {
        Path abs = p.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return existing == null ? abs : existing.toRealPath().resolve(existing.relativize(abs));
    }

    /** Moves a file or a directory; a directory that must change file systems is copied, then deleted. */
    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (java.nio.file.DirectoryNotEmptyException e) {
            if (!Files.isDirectory(from) || Files.isDirectory(to)) {
                throw e; // a full directory in the way: mv refuses it too
            }
            copy(from, to);
            org.banyan.runtime.os.FileTree.delete(from);
        }
    }

    /** Into the sandbox, before the task runs. */
    void stageIn(Places places) throws IOException {
        apply(from(places.client(), places), to(places.task(), places), action);
    }

    /** Into a pilot's sandbox ({@code Pilot.stageIn}): there a target without a place is in the pilot's sandbox. */
    void stageInto(Path client, Path pilotDir, Path session) throws IOException {
        Places p = new Places(client, pilotDir, session, pilotDir);
        apply(from(client, p), to(pilotDir, p), action);
    }

    /** Out of a pilot's sandbox ({@code Pilot.stageOut}). */
    void stageOutOf(Path client, Path pilotDir, Path session) throws IOException {
        Places p = new Places(client, pilotDir, session, pilotDir);
        apply(from(pilotDir, p), to(client, p), action);
    }

    /** Out of the sandbox, once the task is done. */
    void stageOut(Places places) throws IOException {
        apply(from(places.task(), places), to(places.client(), places), action);
    }
}
