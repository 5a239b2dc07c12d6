package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TempRootTest {
    @TempDir
    Path dir;

    @Test
    void aWritableDirectoryIsTakenUnlessTheJvmWasToldAnother() {
        assertThat(TempRoot.choose(dir.toString(), "/tmp")).isEqualTo(dir.toString());
        assertThat(TempRoot.choose(dir.toString(), "/scratch")).as("-Djava.io.tmpdir wins").isNull();
    }

    @Test
    void anUnusableOneLeavesTmp() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        for (String bad : new String[] {null, "", "relative/dir", dir.resolve("gone").toString(), file.toString(),
                dir + "/caf\uFFFD"}) {
            assertThat(TempRoot.choose(bad, "/tmp")).as(String.valueOf(bad)).isNull();
        }
    }
}
