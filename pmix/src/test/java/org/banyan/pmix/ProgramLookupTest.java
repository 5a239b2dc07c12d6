package org.banyan.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A program found as exec finds it, and the interpreter a script's {@code #!} line names. */
class ProgramLookupTest {
    @TempDir
    Path dir;

    @Test
    void aScriptsInterpreterIsTheFirstWordOfItsHashBangLine() throws Exception {
        assertThat(ProgramLookup.interpreterOf(script("#!/bin/sh\necho hi\n"), dir)).isEqualTo(Path.of("/bin/sh"));
        assertThat(ProgramLookup.interpreterOf(script("#! \t/usr/bin/env python3 -u\n"), dir)).isEqualTo(Path.of("/usr/bin/env"));
        assertThat(ProgramLookup.interpreterOf(script("#!/bin/bash"), dir)).as("no newline").isEqualTo(Path.of("/bin/bash"));
        assertThat(ProgramLookup.interpreterOf(script("#!bin/interp\n"), dir)).as("relative: from the working directory")
                .isEqualTo(dir.resolve("bin/interp"));
    }

    @Test
    void whatIsNoScriptNamesNoInterpreter() throws Exception {
        assertThat(ProgramLookup.interpreterOf(script("echo hi\n"), dir)).isNull();
        assertThat(ProgramLookup.interpreterOf(script("#!\n"), dir)).isNull();
        assertThat(ProgramLookup.interpreterOf(script("#"), dir)).isNull();
        assertThat(ProgramLookup.interpreterOf(script(""), dir)).isNull();
        assertThat(ProgramLookup.interpreterOf(dir.resolve("missing"), dir)).isNull();
        assertThat(ProgramLookup.interpreterOf(dir, dir)).as("a directory").isNull();
        assertThat(ProgramLookup.interpreterOf(Path.of("/bin/sh"), dir)).as("an ELF file").isNull();
    }

    @Test
    void aScriptWhoseInterpreterIsMissingIsNamedAsSuch() throws Exception {
        assertThat(ProgramLookup.missingInterpreter(script("#!/bin/sh\r\necho hi\r\n"), dir).words())
                .isEqualTo("has Windows line endings: its #! line names the interpreter '/bin/sh\\r', which does not exist"
                        + " (dos2unix fixes the script)");
        assertThat(ProgramLookup.missingInterpreter(script("#!/nonexistent/interp -x\n"), dir).words())
                .isEqualTo("names the interpreter '/nonexistent/interp' on its #! line, which does not exist");
        assertThat(ProgramLookup.missingInterpreter(script("#!/bin/sh\necho hi\n"), dir)).isNull();
        assertThat(ProgramLookup.missingInterpreter(Path.of("/bin/sh"), dir)).as("an ELF file").isNull();
        assertThat(ProgramLookup.missingInterpreter(script("echo hi\n"), dir)).isNull();
    }

    /** Before a launch only the script is read: its interpreter may hang (a dead mount) or exist only on the ranks' hosts. */
    @Test
    void windowsLineEndingsAreFoundWithoutLookingAtTheInterpreter() throws Exception {
        assertThat(ProgramLookup.windowsLineEndings(script("#!/bin/sh\r\necho hi\r\n"), dir))
                .isEqualTo(new ProgramLookup.BadInterpreter("/bin/sh\r", true));
        assertThat(ProgramLookup.windowsLineEndings(script("#!/nonexistent/interp\n"), dir)).as("missing, but maybe not there").isNull();
        assertThat(ProgramLookup.windowsLineEndings(Path.of("/bin/sh"), dir)).isNull();
    }

    @Test
    void aFifoIsNotOpened() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        // an open for reading would wait for a writer, for ever
        assertThat(ProgramLookup.interpreterOf(fifo, dir)).isNull();
    }

    @Test
    void onlyTheKernelsFirst256BytesCount() throws Exception {
        String longName = "/" + "x".repeat(300);
        assertThat(ProgramLookup.interpreterOf(script("#!" + longName + "\n"), dir)).isEqualTo(Path.of(longName.substring(0, 254)));
    }

    @Test
    void aBareNameIsFoundAlongPathAndANameWithASlashIsNotSearched() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path prog = bin.resolve("prog");
        Files.writeString(prog, "#!/bin/sh\n");
        prog.toFile().setExecutable(true);
        assertThat(ProgramLookup.find("prog", dir, "/nonexistent:" + bin)).isEqualTo(prog);
        assertThat(ProgramLookup.find("prog", dir, "/nonexistent")).isNull();
        assertThat(ProgramLookup.find("./prog", bin, "/nonexistent")).isEqualTo(bin.resolve("./prog"));
    }

    private Path script(String text) throws Exception {
        Path p = Files.createTempFile(dir, "script", "");
        Files.writeString(p, text);
        return p;
    }
}
