package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output nobody can take: a reader of banyan's stdout that went away ({@code | head -1}) or an
 * output file on a full device ends the job at once, with one line (none under -q) and every
 * rank ended, as Hydra does (status 141). Before, {@code banyan run -n 1 yes | head -1} never
 * ended, burning a core.
 */
class ClosedOutputTest {
    @TempDir
    Path dir;

    Path uri;

    @AfterEach
    void stopDvm() throws Exception {
        if (uri != null && Files.exists(uri)) {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
    }

    /** Runs {@code banyan ARGS | head -1} in bash; its stdout, stderr, and banyan's status last. */
    private static String[] pipeToHead(List<String> args) throws Exception {
        String command = "\"$0\" \"$@\" | head -1; echo \"status=${PIPESTATUS[0]}\"";
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", "-c", command, Banyan.SCRIPT.toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("banyan ended when its reader went away").isTrue();
        return new String[] {new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)};
    }

    @Test
    void aClosedStdoutEndsTheJobWith141() throws Exception {
        String m = Banyan.marker();
        String[] r = pipeToHead(List.of("run", "-n", "2", "--oversubscribe", "yes", m));
        assertThat(r[0]).isEqualTo(m + "\nstatus=141\n");
        assertThat(r[1]).isEqualTo("banyan run: its output is closed (broken pipe); ending the job\n");
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void quietSaysNothingButTheStatusStillDoes() throws Exception {
        String m = Banyan.marker();
        String[] r = pipeToHead(List.of("run", "-q", "-n", "1", "--tag-output", "yes", m));
        assertThat(r[0]).isEqualTo("[1,0]<stdout>:" + m + "\nstatus=141\n");
        assertThat(r[1]).isEmpty();
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void aDvmClientWhoseStdoutClosesEndsItsJob() throws Exception {
        uri = dir.resolve("dvm.uri");
        assertThat(Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2", "--warm-up", "0").exit())
                .isZero();
        String m = Banyan.marker();
        String[] r = pipeToHead(List.of("run", "--dvm", uri.toString(), "-n", "1", "yes", m));
        assertThat(r[0]).isEqualTo(m + "\nstatus=141\n");
        assertThat(r[1]).contains("its output is closed (broken pipe); job ").contains(" ended with it");
        for (int i = 0; i < 100 && !Banyan.processesWith("yes " + m).isEmpty(); i++) {
            Thread.sleep(50);
        }
        assertThat(Banyan.processesWith("yes " + m)).as("the DVM ended the job as its client went").isEmpty();
    }

    /**
     * A reader that takes nothing ({@code | sleep}): banyan's own writes held its event loop, so
     * {@code timeout}'s SIGTERM (and Ctrl-C) waited until the reader went away, the job running
     * on. Now the job ends on the signal, what the reader did not take is dropped, and nothing is
     * left running; the same for a DVM's client.
     */
    @Test
    void aReaderThatTakesNothingDoesNotHoldTheJobFromItsSignal() throws Exception {
        String m = Banyan.marker();
        assertThat(endedWhileTheReaderSleeps(List.of("run", "-n", "1", "yes", m))).isEqualTo("status=124");
        Banyan.assertNoProcessesWith(m);

        uri = dir.resolve("dvm.uri");
        assertThat(Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2", "--warm-up", "0").exit())
                .isZero();
        String d = Banyan.marker();
        assertThat(endedWhileTheReaderSleeps(List.of("run", "--dvm", uri.toString(), "-n", "1", "yes", d))).isEqualTo("status=124");
        for (int i = 0; i < 100 && !Banyan.processesWith("yes " + d).isEmpty(); i++) {
            Thread.sleep(50);
        }
        assertThat(Banyan.processesWith("yes " + d)).as("the DVM ended the job").isEmpty();
    }

    /** {@code timeout 3 banyan ARGS | sleep 15}: banyan's status, said when it ended, which must be well before the reader's end. */
    private static String endedWhileTheReaderSleeps(List<String> args) throws Exception {
        String command = "( timeout 3 \"$0\" \"$@\" 2>/dev/null; echo \"status=$? at=$SECONDS\" >&2 ) | sleep 15";
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", "-c", command, Banyan.SCRIPT.toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(said).matches("status=\\d+ at=\\d+");
        int at = Integer.parseInt(said.substring(said.indexOf("at=") + 3));
        assertThat(at).as("banyan ended on timeout's SIGTERM, not when its reader went away at 15 s: " + said).isLessThan(11);
        return said.substring(0, said.indexOf(' '));
    }

    /**
     * The other commands' output lost: to a full device or a closed stdout they said nothing and
     * exited 0 (a script reading {@code banyan submit --detach}'s id went on without it); now one
     * line and 1, as coreutils' commands, and 141 without a word when the pipe's reader left.
     */
    @Test
    void aCommandWhoseOutputIsLostSaysSoAndFails() throws Exception {
        String command = "\"$0\" --version > /dev/full; echo \"full=$?\"; \"$0\" sim launch --hosts 10 >&-; echo \"closed=$?\"; "
                + "\"$0\" --version | (exec 0<&-; sleep 1); echo \"pipe=${PIPESTATUS[0]}\"; \"$0\" --version > /dev/null; echo \"null=$?\"";
        Process p = new ProcessBuilder("bash", "-c", command, Banyan.SCRIPT.toString()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("full=1\nclosed=1\npipe=141\nnull=0\n");
        assertThat(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(
                "banyan: cannot write its output (No space left on device)\n"
                        + "banyan sim: cannot write its output (Bad file descriptor)\n");
    }

    /**
     * banyan run's stdout on a full device: one line and 1, as its other commands and coreutils'
     * say it (it ended with 141, which says the reader went away), the ranks ended.
     */
    @Test
    void aRunWhoseOutputIsAFullDeviceSaysSoAndFailsWith1() throws Exception {
        String m = Banyan.marker();
        String command = "\"$0\" run -n 2 sh -c 'while true; do echo line; sleep 0.1; done; : " + m + "' > /dev/full; echo \"full=$?\"";
        Process p = new ProcessBuilder("bash", "-c", command, Banyan.SCRIPT.toString()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("full=1\n");
        assertThat(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("banyan run: its output is not writable (No space left on device); ending the job\n");
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void anOutputFileThatCannotBeWrittenEndsTheJob() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "-n", "1", "-outfile-pattern", "/dev/full", "sh", "-c",
                "while true; do echo line; sleep 0.1; done; : " + m);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stderr()).isEqualTo("banyan run: cannot write rank 0's output file: No space left on device; ending the job\n");
        Banyan.assertNoProcessesWith(m);
        Banyan.Result quick = Banyan.run("run", "-n", "1", "-outfile-pattern", "/dev/full", "echo", "hi");
        assertThat(quick.exit()).as("the last bytes of a job that ended count too").isEqualTo(1);
        assertThat(quick.stderr()).contains("cannot write rank 0's output file: No space left on device");
    }

    /** The same with --output-filename, whose files are copied to the terminal: the file's failure still ends the job. */
    @Test
    void aCopiedOutputFileThatCannotBeWrittenEndsTheJob() throws Exception {
        Path rank0 = Files.createDirectories(dir.resolve("out/1/rank.0"));
        Files.createSymbolicLink(rank0.resolve("stdout"), Path.of("/dev/full")); // a full disk, as the file system says it
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "-n", "1", "--output-filename", dir.resolve("out").toString(), "sh", "-c",
                "while true; do echo line; sleep 0.1; done; : " + m);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stderr()).contains("banyan run: cannot write rank 0's output file: No space left on device; ending the job");
        Banyan.assertNoProcessesWith(m);
    }
}
