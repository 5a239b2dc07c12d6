package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a child started through posix_spawn sees: its command, environment, directory and files. */
class PosixSpawnTest {
    private final ChildReaper reaper = new ChildReaper(e -> { }, () -> { }, 1);

    @TempDir
    Path dir;

    @AfterEach
    void noChildLeft() {
        assertThat(ProcessHandle.current().children().count()).as("children left").isZero();
    }

    /** Runs {@code sh -c script} with {@code env} on top of this JVM's, its output in a file. */
    private String run(String script, Map<String, String> env) throws Exception {
        Path out = dir.resolve("out");
        PosixSpawn.Child c = PosixSpawn.spawn(List.of("/bin/sh", "-c", script), env, dir.toString(), PosixSpawn.NULL,
                new PosixSpawn.Stdio.File(out.toString()), new PosixSpawn.Stdio.File(dir.resolve("err").toString()));
        assertThat(reaper.watch(c.pid()).get(10, TimeUnit.SECONDS)).as("exit of %s", script).isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    @Test
    void theChildHasThisEnvironmentWithTheCallersVariablesOnTop() throws Exception {
        String path = System.getenv("PATH");
        assertThat(run("echo \"$PATH|$BANYAN_T1|$HOME\"", Map.of("BANYAN_T1", "one", "HOME", "/elsewhere")))
                .isEqualTo(path + "|one|/elsewhere\n");
        assertThat(run("env | grep -c '^HOME='", Map.of("HOME", "/elsewhere"))).as("a replaced variable is there once")
                .isEqualTo("1\n");
        assertThat(run("echo \"${BANYAN_T1-unset}|$HOME\"", Map.of())).as("nothing left over from the spawn before")
                .isEqualTo("unset|" + System.getenv("HOME") + "\n");
    }

    /**
     * A program named without a slash is found through the C environment's PATH, which the PMIx
     * server's start changes (setenv) on another thread: the JVM crashed in getenv when setenv
     * moved glibc's array under it. Spawns of {@code true} on two threads while a third sets 3,000
     * new variables and removes them through {@link org.banyan.pmix.CCall#setenv}, as PmixServer
     * sets its own.
     */
    @Test
    void spawnsByNameWhileTheCEnvironmentGrowsDoNotCrash() throws Exception {
        assertThat(CEnvironmentChurn.failuresOf(150, () -> {
            PosixSpawn.Child c = PosixSpawn.spawn(List.of("true"), Map.of(), dir.toString(), PosixSpawn.NULL,
                    PosixSpawn.NULL, PosixSpawn.NULL);
            assertThat(reaper.watch(c.pid()).get(10, TimeUnit.SECONDS)).isZero();
        })).isEmpty();
    }

    @Test
    void argumentsDirectoryAndNonAsciiTextArriveWhole() throws Exception {
        assertThat(run("printf '%s|%s|' \"$0\" \"$1\"; pwd", Map.of("X", "é"))).isEqualTo("/bin/sh||" + dir.toRealPath() + "\n");
        assertThat(run("printf '%s' \"$X\"", Map.of("X", "é ü ✓"))).isEqualTo("é ü ✓");
    }

    @Test
    void manySpawnsInARowEachGetTheirOwnCommandAndOneLargerThanTheScratchWorks() throws Exception {
        for (int i = 0; i < 200; i++) {
            String v = "v" + i + "x".repeat(i % 7 * 50);
            assertThat(run("printf '%s' \"$V\"", Map.of("V", v))).isEqualTo(v);
        }
        String huge = "y".repeat(100_000); // more than a thread's 64 KiB scratch, less than the kernel's 128 KiB a string
        assertThat(run("printf '%s' \"$V\" | wc -c", Map.of("V", huge)).trim()).isEqualTo("100000");
        assertThat(run("printf '%s' \"$V\"", Map.of("V", "after"))).isEqualTo("after");
    }

    /** As execvp and the JDK's ProcessBuilder: a text file with no #! line runs under /bin/sh, its arguments after it. */
    @Test
    void aScriptWithoutAHashBangLineRunsUnderTheShell() throws Exception {
        Path script = dir.resolve("plain.sh");
        Files.writeString(script, "printf '%s|%s' \"$1\" \"$2\" > \"$3\"\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Path out = dir.resolve("plain.out");
        PosixSpawn.Child c = PosixSpawn.spawn(List.of("./plain.sh", "a b", "", out.toString()), Map.of(), dir.toString(),
                PosixSpawn.NULL, PosixSpawn.NULL, PosixSpawn.NULL);
        assertThat(reaper.watch(c.pid()).get(10, TimeUnit.SECONDS)).isZero();
        assertThat(Files.readString(out)).isEqualTo("a b|");
    }

    /** exec says a script whose interpreter is missing is itself missing: the failure names the interpreter. */
    @Test
    void aMissingInterpreterIsNamedInTheFailure() throws Exception {
        Path crlf = dir.resolve("crlf.sh");
        Files.writeString(crlf, "#!/bin/sh\r\necho hi\r\n");
        Path elsewhere = dir.resolve("elsewhere.sh");
        Files.writeString(elsewhere, "#!/nonexistent/interp\necho hi\n");
        assertThat(crlf.toFile().setExecutable(true) && elsewhere.toFile().setExecutable(true)).isTrue();
        IOException e = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of(crlf.toString()), Map.of(), null, PosixSpawn.NULL, PosixSpawn.NULL, PosixSpawn.NULL));
        assertThat(e).hasMessage("No such file or directory (the script has Windows line endings: its #! line names the"
                + " interpreter '/bin/sh\\r', which does not exist (dos2unix fixes the script))");
        e = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of(elsewhere.toString()), Map.of(), null, PosixSpawn.NULL, PosixSpawn.NULL, PosixSpawn.NULL));
        assertThat(e).hasMessage("No such file or directory (the script names the interpreter '/nonexistent/interp' on its"
                + " #! line, which does not exist on this host)");
    }

    /** A file with a NUL byte in its first block (an ELF file of another machine, a data file) is not given to the shell. */
    @Test
    void aBinaryFileInNoKnownFormatStaysAnExecFormatError() throws Exception {
        Path binary = dir.resolve("other-arch");
        Files.write(binary, new byte[] {0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0, 0});
        assertThat(binary.toFile().setExecutable(true)).isTrue();
        IOException e = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of(binary.toString()), Map.of(), null, PosixSpawn.NULL, PosixSpawn.NULL, PosixSpawn.NULL));
        assertThat(e).hasMessage("Exec format error");
    }

    @Test
    void aProgramThatIsNotThereIsOneClearError() {
        IOException e = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of("/no/such/program"), Map.of(), null, PosixSpawn.NULL, PosixSpawn.NULL, PosixSpawn.NULL));
        assertThat(e).hasMessageContaining("No such file");
    }

    /**
     * A stream's file that cannot be opened fails the spawn with the errno a missing program
     * gives: the message says which it was, so a task is not reported as a missing program.
     */
    @Test
    void aStreamFileThatCannotBeOpenedIsNamed() {
        String out = dir.resolve("no-dir/out").toString();
        IOException e = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of("/bin/true"), Map.of(), null, PosixSpawn.NULL, new PosixSpawn.Stdio.File(out), PosixSpawn.NULL));
        assertThat(e).hasMessage("No such file or directory (cannot open its stdout " + out + ")");
        IOException noDir = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of("/bin/true"), Map.of(), dir.resolve("gone").toString(), PosixSpawn.NULL, PosixSpawn.NULL, PosixSpawn.NULL));
        assertThat(noDir).hasMessage("No such file or directory (no directory " + dir.resolve("gone") + ")");
    }

    /**
     * A stream's file that is a link or a device the child cannot open (here /dev/stdout, which in
     * the child names the descriptor its own action has just closed), with the program there: the
     * failure names the file, not the program ("/bin/echo: No such file or directory" before).
     */
    @Test
    void anOddStreamFileIsNamedWhenTheProgramIsThere() {
        IOException e = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of("echo", "x"), Map.of(), null, PosixSpawn.NULL, new PosixSpawn.Stdio.File("/dev/stdout"), PosixSpawn.NULL));
        assertThat(e).hasMessage("No such file or directory (opening its stdout /dev/stdout; its program is there)");
        IOException missing = org.assertj.core.api.Assertions.catchThrowableOfType(IOException.class, () -> PosixSpawn.spawn(
                List.of("/no/such/program"), Map.of(), null, PosixSpawn.NULL, new PosixSpawn.Stdio.File("/dev/stdout"),
                PosixSpawn.NULL));
        assertThat(missing).as("a missing program is still the program").hasMessage("No such file or directory");
    }
}
