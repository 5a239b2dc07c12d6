package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MkdirTest {
    @TempDir
    Path tmp;

    @Test
    void makesADirectoryOnceAndNotUnderAMissingParent() {
        Path d = tmp.resolve("task.000001");
        assertThat(Mkdir.make(d.toString())).isTrue();
        assertThat(d).isDirectory();
        assertThat(Mkdir.make(d.toString())).as("already there").isFalse();
        assertThat(Mkdir.make(tmp.resolve("no/such/parent").toString())).isFalse();
        assertThat(tmp.resolve("no")).doesNotExist();
    }
}
