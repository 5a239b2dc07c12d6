package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Function workers start in their sandboxes: the class path they get names the same files from there. */
class FunctionPoolClassPathTest {
    @Test
    void relativeEntriesWildcardsAndTheEmptyEntryAreMadeAbsolute() {
        Path cwd = Path.of("/home/u/app");
        assertThat(FunctionPool.absoluteClassPath("banyan.jar:classes:../lib/*:/opt/x.jar:", cwd))
                .isEqualTo("/home/u/app/banyan.jar:/home/u/app/classes:/home/u/lib/*:/opt/x.jar:/home/u/app");
        assertThat(FunctionPool.absoluteClassPath("*", cwd)).isEqualTo("/home/u/app/*");
        assertThat(FunctionPool.absoluteClassPath("/abs/a.jar", cwd)).isEqualTo("/abs/a.jar");
    }
}
