package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.banyan.core.job.WireUp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An MPI task's sandbox and program, made and read off the DVM's loop before its job is
 * submitted (on the loop, a hung mount there stopped the whole DVM).
 */
class TaskJobSetupTest {
    @TempDir
    Path dir;

    private final LinkedBlockingQueue<String> told = new LinkedBlockingQueue<>();
    private final TaskJobSetup setup = new TaskJobSetup(new TaskJobSetup.Events() {
        @Override
        public void prepared(int job, WireUp wireUp) {
            told.add(job + " " + wireUp);
        }

        @Override
        public void failed(int job, String why) {
            told.add(job + " " + why);
        }
    });

    @Test
    void makesTheSandboxAndServesTheProgramAsItsLibrariesSay() throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
        setup.prepare(1, dir.resolve("a/b").toString(), "java", javaBin);
        assertThat(told.poll(10, TimeUnit.SECONDS)).as("a JVM wires up through PMI-2").isEqualTo("1 PMI");
        assertThat(dir.resolve("a/b")).isDirectory();

        setup.prepare(2, dir.toString(), "./no-such-program", null);
        assertThat(told.poll(10, TimeUnit.SECONDS)).as("not found: both ways").isEqualTo("2 BOTH");
    }

    @Test
    void aSandboxThatCannotBeMadeSaysWhy() throws Exception {
        Files.writeString(dir.resolve("file"), "");
        setup.prepare(3, dir.resolve("file/below").toString(), "java", null);
        assertThat(told.poll(10, TimeUnit.SECONDS))
                .isEqualTo("3 java: cannot make its directory " + dir.resolve("file/below") + " (Not a directory)");
    }
}
