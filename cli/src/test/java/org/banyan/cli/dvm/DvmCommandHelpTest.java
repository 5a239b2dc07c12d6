package org.banyan.cli.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code banyan dvm start --help}, which its own errors point to, prints the options (it said "unknown option"). */
class DvmCommandHelpTest {
    @Test
    void startStatusAndStopTakeHelp() throws Exception {
        for (String command : List.of("start", "status", "stop")) {
            PrintStream out = System.out;
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            System.setOut(new PrintStream(said, true));
            int code;
            try {
                code = new DvmCommand(Map.of("HOME", "/nonexistent"), Path.of("/")).run(List.of(command, "--help"));
            } finally {
                System.setOut(out);
            }
            assertThat(code).as(command).isZero();
            assertThat(said.toString()).as(command).startsWith("Usage: banyan dvm start [OPTIONS]").contains("Options of start:")
                    .contains("--uri-file");
        }
    }
}
