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
}
