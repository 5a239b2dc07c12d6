package org.banyan.cli.options;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class InputFilesTest {
    /** A device that never ends ({@code --swf /dev/zero}) is read up to the bound and refused, not until memory runs out. */
    @Test
    void anEndlessDeviceIsRefusedAtTheBound() {
        assertThatThrownBy(() -> InputFiles.text(Path.of("/dev/zero"), "--swf", 1 << 20, "a quarter of this command's memory"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--swf '/dev/zero' is longer than 1 MiB (a quarter of this command's memory)");
    }
}
