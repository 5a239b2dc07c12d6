package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.banyan.core.daemon.WarmProgram;
import org.banyan.runtime.warm.WarmStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM started as the warm pool starts one, with the agent's jar as the daemon writes it: its
 * program sees the variables of its activation through {@code System.getenv}, as if it had started
 * with them; the end of its stdin before an activation ends it without running the program.
 */
class WarmAgentTest {
    @TempDir
    Path dir;

    Process waiting() throws Exception {
        return waiting(PrintsItsVariable.class, "BANYAN_WARM_TEST");
    }

    Process waiting(Class<?> main, String arg) throws Exception {
        Path jar = dir.resolve("agent.jar");
        WarmPool.writeAgentJar(jar);
        WarmProgram program = new WarmProgram(1, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                List.of("-cp", System.getProperty("java.class.path"), main.getName(), arg), Map.of(), null);
        return new ProcessBuilder(program.command(jar.toString())).redirectErrorStream(true).start();
    }

    @Test
    void theProgramSeesTheVariablesOfItsActivation() throws Exception {
        Process p = waiting();
        try {
            Thread.sleep(300); // let it reach its wait, as a pool's JVM does long before it is taken
            try (OutputStream stdin = p.getOutputStream()) {
                stdin.write(WarmStart.activation(Map.of("BANYAN_WARM_TEST", "rank 3 ✓", "BANYAN_RANK", "3")));
            }
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).as("no warning, nothing but the program's line").isEqualTo("main BANYAN_WARM_TEST=rank 3 ✓\n");
            assertThat(p.exitValue()).isZero();
        } finally {
            p.destroyForcibly(); // a failed assertion leaves no JVM behind
        }
    }

    /**
     * What a warm rank starts carries the daemon's mark for the rank, as what a rank spawned fresh
     * starts does: without it, what the rank left in a session of its own was nobody's stray.
     */
    @Test
    void whatTheRankStartsCarriesTheDaemonsMarkForTheRank() throws Exception {
        Process p = waiting(StartsAChild.class, "echo child $BANYAN_ORIGIN");
        try {
            org.banyan.core.daemon.RankLaunch launch = new org.banyan.core.daemon.RankLaunch(7, 2, "java", List.of(),
                    Map.of("BANYAN_RANK", "2"), null, false, false, null, null, null, new int[0], null);
            try (OutputStream stdin = p.getOutputStream()) {
                stdin.write(RankProcess.warmActivation(launch));
            }
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).isEqualTo("child " + ProcessHandle.current().pid() + ":7:2\n");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void theEndOfStdinBeforeAnActivationEndsItWithoutRunningTheProgram() throws Exception {
        Process p = waiting();
        try {
            p.getOutputStream().close();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).isEmpty();
            assertThat(p.exitValue()).isZero();
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * A waiting JVM whose end is known is not killed by its pid again: the pid may be another
     * process's by then (here a live {@code sleep} stands for that other process).
     */
    @Test
    void aWaitingJvmThatHasEndedIsNotKilledByItsPid() throws Exception {
        Process other = new ProcessBuilder("sleep", "30").start();
        try {
            WarmPool.Waiting ended = new WarmPool.Waiting(new WarmProgram(1, "java", List.of(), Map.of(), null), other.pid(), 0,
                    java.util.concurrent.CompletableFuture.completedFuture(0), -1, -1, -1);
            WarmPool.discardNow(ended);
            assertThat(other.waitFor(500, TimeUnit.MILLISECONDS)).as("the process now holding the pid lives on").isFalse();
        } finally {
            other.destroyForcibly();
        }
    }
}
