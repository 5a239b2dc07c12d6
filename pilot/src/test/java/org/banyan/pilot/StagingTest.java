package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A staging directive with an empty source or target is refused when made: the target "" was the sandbox itself. */
class StagingTest {
    @Test
    void anEmptyEndIsRefused() {
        assertThatThrownBy(() -> new Staging("in.dat", "", Staging.Action.COPY))
                .hasMessage("a staging directive needs a source and a target, each a path, got 'in.dat' -> ''");
        assertThatThrownBy(() -> new Staging(" ", "x", Staging.Action.LINK)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Staging(null, "x", Staging.Action.MOVE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Staging("a", "x", null))
                .hasMessage("a staging directive needs an action (copy, link, move or transfer)");
    }

    /** A task that failed its staging said {@code java.nio.file.NoSuchFileException: /in.txt}. */
    @Test
    void aFailureSaysWhatCouldNotBeDoneAndWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path missing = dir.resolve("in.txt");
        assertThatThrownBy(() -> Staging.apply(missing, dir.resolve("box/in.txt"), Staging.Action.COPY))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("cannot copy " + missing + " to " + dir.resolve("box/in.txt") + " (No such file or directory: " + missing + ")");
    }

    /** RADICAL-Pilot's locations name the place of either end; without one, each end has its default. */
    @Test
    void locationsNameThePlaceOfEitherEnd(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path client = dir.resolve("client");
        java.nio.file.Path task = dir.resolve("session/task.000000");
        Staging.Places places = new Staging.Places(client, task, dir.resolve("session"), dir.resolve("session/pilot.0000"));
        java.nio.file.Files.createDirectories(client);
        java.nio.file.Files.writeString(client.resolve("in.dat"), "in");
        new Staging("client:///in.dat", "task:///", Staging.Action.COPY).stageIn(places);
        new Staging("in.dat", "sub/again.dat", Staging.Action.LINK).stageIn(places);
        org.assertj.core.api.Assertions.assertThat(task.resolve("in.dat")).hasContent("in");
        org.assertj.core.api.Assertions.assertThat(task.resolve("sub/again.dat")).isSymbolicLink().hasContent("in");

        new Staging("task:///in.dat", "pilot:///kept/in.dat", Staging.Action.COPY).stageOut(places);
        new Staging("in.dat", "session://all/in.dat", Staging.Action.COPY).stageOut(places);
        new Staging("endpoint://" + task.resolve("in.dat"), "back.dat", Staging.Action.MOVE).stageOut(places);
        org.assertj.core.api.Assertions.assertThat(dir.resolve("session/pilot.0000/kept/in.dat")).hasContent("in");
        org.assertj.core.api.Assertions.assertThat(dir.resolve("session/all/in.dat")).hasContent("in");
        org.assertj.core.api.Assertions.assertThat(client.resolve("back.dat")).hasContent("in");
        org.assertj.core.api.Assertions.assertThat(task.resolve("in.dat")).doesNotExist();
    }

    @Test
    void anUnknownPlaceOrASourceWithoutAFileIsRefused() {
        assertThatThrownBy(() -> new Staging("resource:///in.dat", "in.dat", Staging.Action.COPY))
                .hasMessage("'resource:///in.dat': resource:// is not a place here (client://, task://, session://, pilot:// or endpoint://)");
        assertThatThrownBy(() -> new Staging("out.dat", "file://host/out.dat", Staging.Action.COPY))
                .hasMessageStartingWith("'file://host/out.dat': file:// is not a place here");
        assertThatThrownBy(() -> new Staging("task:///", "x", Staging.Action.COPY))
                .hasMessage("the source 'task:///' names a place, not a file in it");
    }
    /**
     * A file staged onto a directory goes into it, as cp, mv and ln put it: the copy replaced an
     * empty directory with the file (and failed on a full one); a target ending in '/' names a
     * directory, made if missing.
     */
    @Test
    void aFileStagedOntoADirectoryGoesIntoIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path out = java.nio.file.Files.createDirectories(dir.resolve("out"));
        java.nio.file.Files.writeString(dir.resolve("r.txt"), "1");
        Staging.apply(dir.resolve("r.txt"), out, Staging.Action.COPY);
        org.assertj.core.api.Assertions.assertThat(out).isDirectory();
        org.assertj.core.api.Assertions.assertThat(out.resolve("r.txt")).hasContent("1");
        java.nio.file.Files.writeString(dir.resolve("m.txt"), "2");
        Staging.apply(dir.resolve("m.txt"), out, Staging.Action.MOVE);
        org.assertj.core.api.Assertions.assertThat(out.resolve("m.txt")).hasContent("2");
        org.assertj.core.api.Assertions.assertThat(dir.resolve("m.txt")).doesNotExist();
        Staging.apply(dir.resolve("r.txt"), out, Staging.Action.LINK);
        org.assertj.core.api.Assertions.assertThat(out.resolve("r.txt")).isSymbolicLink().hasContent("1");

        java.nio.file.Path task = dir.resolve("task");
        Staging.Places places = new Staging.Places(dir, task, dir, dir);
        new Staging("r.txt", "made/", Staging.Action.COPY).stageIn(places);
        org.assertj.core.api.Assertions.assertThat(task.resolve("made/r.txt")).hasContent("1");
    }

    /**
     * A directory is copied with everything in it, symbolic links as links (as cp -r); it was
     * copied alone, empty, and the task found none of its files. Staged again onto itself, it
     * gives the same tree, not one a level deeper.
     */
    @Test
    void aDirectoryIsCopiedWholeAndAgainTheSame(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path src = java.nio.file.Files.createDirectories(dir.resolve("src/sub"));
        java.nio.file.Files.writeString(dir.resolve("src/a"), "a");
        java.nio.file.Files.writeString(src.resolve("b"), "b");
        java.nio.file.Files.createSymbolicLink(dir.resolve("src/l"), java.nio.file.Path.of("a"));
        java.nio.file.Path to = dir.resolve("box/data");
        Staging.apply(dir.resolve("src"), to, Staging.Action.COPY);
        Staging.apply(dir.resolve("src"), to, Staging.Action.TRANSFER);
        org.assertj.core.api.Assertions.assertThat(to.resolve("a")).hasContent("a");
        org.assertj.core.api.Assertions.assertThat(to.resolve("sub/b")).hasContent("b");
        org.assertj.core.api.Assertions.assertThat(to.resolve("l")).isSymbolicLink();
        org.assertj.core.api.Assertions.assertThat(java.nio.file.Files.readSymbolicLink(to.resolve("l"))).isEqualTo(java.nio.file.Path.of("a"));
        org.assertj.core.api.Assertions.assertThat(to.resolve("src")).as("not a level deeper").doesNotExist();
        assertThatThrownBy(() -> Staging.apply(dir.resolve("src"), dir.resolve("src/sub/again"), Staging.Action.COPY))
                .hasMessageContaining("a directory into itself");
    }

    /**
     * A link to a directory named as the source is followed (a dataset linked into the
     * submitter's directory): its tree was not copied, the link itself replaced an empty target
     * and a full one failed. A target reached through a link into the source is refused: the
     * check of the paths as written let it through, and the copy walked into its own output.
     */
    @Test
    void aLinkToADirectoryIsCopiedAsItsTreeAndALinkBackIntoItIsRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path data = java.nio.file.Files.createDirectories(dir.resolve("datasets/d1/sub"));
        java.nio.file.Files.writeString(data.resolve("x"), "x");
        java.nio.file.Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("data"), dir.resolve("datasets/d1"));
        java.nio.file.Path empty = java.nio.file.Files.createDirectories(dir.resolve("box/data"));
        Staging.apply(link, empty, Staging.Action.COPY);
        org.assertj.core.api.Assertions.assertThat(empty).isDirectory().isNotEmptyDirectory();
        org.assertj.core.api.Assertions.assertThat(java.nio.file.Files.isSymbolicLink(empty)).isFalse();
        org.assertj.core.api.Assertions.assertThat(empty.resolve("sub/x")).hasContent("x");
        Staging.apply(link, empty, Staging.Action.COPY); // onto the full tree: the same tree again
        org.assertj.core.api.Assertions.assertThat(empty.resolve("sub/x")).hasContent("x");

        java.nio.file.Path back = java.nio.file.Files.createSymbolicLink(dir.resolve("back"), data);
        assertThatThrownBy(() -> Staging.apply(dir.resolve("datasets"), back.resolve("copy"), Staging.Action.COPY))
                .hasMessageContaining("a directory into itself");
        assertThatThrownBy(() -> Staging.apply(link, back.resolve("deeper/copy"), Staging.Action.COPY))
                .hasMessageContaining("a directory into itself");
        org.assertj.core.api.Assertions.assertThat(data.resolve("copy")).doesNotExist();
    }

    /** A directory moved to another file system is copied and then removed (a rename cannot cross). */
    @Test
    void aDirectoryMovesAcrossFileSystems(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path shm = java.nio.file.Path.of("/dev/shm");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(shm)
                && !java.nio.file.Files.getFileStore(shm).equals(java.nio.file.Files.getFileStore(dir)), "/dev/shm on another file system");
        java.nio.file.Path src = java.nio.file.Files.createTempDirectory(shm, "staging-move");
        try {
            java.nio.file.Files.writeString(java.nio.file.Files.createDirectories(src.resolve("sub")).resolve("b"), "b");
            Staging.apply(src, dir.resolve("moved"), Staging.Action.MOVE);
            org.assertj.core.api.Assertions.assertThat(dir.resolve("moved/sub/b")).hasContent("b");
            org.assertj.core.api.Assertions.assertThat(src).doesNotExist();
        } finally {
            org.banyan.runtime.os.FileTree.delete(src);
        }
    }
}
