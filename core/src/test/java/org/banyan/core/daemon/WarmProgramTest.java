package org.banyan.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which rank a waiting JVM can become: only one a cold start would have made the same process. */
class WarmProgramTest {
    static final WarmProgram PROGRAM = new WarmProgram(3, "/jdk/bin/java", List.of("-cp", "a.jar", "Main", "8"),
            Map.of("K", "v"), "/work");

    static RankLaunch rank(String executable, List<String> args, Map<String, String> extra, String workdir, boolean stdin,
                           String stdout, int[] cpus) {
        Map<String, String> env = new HashMap<>(Map.of("K", "v", "BANYAN_RANK", "5", "BANYAN_DMR_GENERATION", "2"));
        env.putAll(extra);
        return new RankLaunch(7, 5, executable, args, env, workdir, false, stdin, stdout, stdout, null, cpus, null);
    }

    static RankLaunch rank() {
        return rank("/jdk/bin/java", List.of("-cp", "a.jar", "Main", "8"), Map.of(), "/work", false, null, new int[0]);
    }

    @Test
    void itServesARankOfItsProgramWhateverTheRanksOwnVariables() {
        assertThat(PROGRAM.serves(rank())).isTrue();
        assertThat(PROGRAM.command("/tmp/w/agent.jar")).containsExactly("/jdk/bin/java", WarmProgram.NATIVE_ACCESS,
                "-javaagent:/tmp/w/agent.jar", "-cp", "a.jar", "Main", "8");
    }

    @Test
    void itServesNoRankACheckStartWouldMakeOtherwise() {
        List<String> args = List.of("-cp", "a.jar", "Main", "8");
        assertThat(PROGRAM.serves(rank("/other/java", args, Map.of(), "/work", false, null, new int[0]))).isFalse();
        assertThat(PROGRAM.serves(rank("/jdk/bin/java", List.of("-cp", "a.jar", "Main", "9"), Map.of(), "/work", false, null,
                new int[0]))).as("arguments").isFalse();
        assertThat(PROGRAM.serves(rank("/jdk/bin/java", args, Map.of(), "/elsewhere", false, null, new int[0])))
                .as("directory").isFalse();
        assertThat(PROGRAM.serves(rank("/jdk/bin/java", args, Map.of("K", "w"), "/work", false, null, new int[0])))
                .as("a variable the JVM started with, changed").isFalse();
        assertThat(PROGRAM.serves(rank("/jdk/bin/java", args, Map.of(), "/work", true, null, new int[0])))
                .as("reads stdin").isFalse();
        assertThat(PROGRAM.serves(rank("/jdk/bin/java", args, Map.of(), "/work", false, "t.out", new int[0])))
                .as("output to files").isFalse();
        assertThat(PROGRAM.serves(rank("/jdk/bin/java", args, Map.of(), "/work", false, null, new int[] {1})))
                .as("bound to a CPU").isFalse();
        RankLaunch without = new RankLaunch(7, 5, "/jdk/bin/java", args, Map.of("BANYAN_RANK", "5"), "/work", false, false,
                null, null, null, new int[0], null);
        assertThat(PROGRAM.serves(without)).as("a variable it started with, missing").isFalse();
    }

    @Test
    void onlyJavaLaunchersAreKeptWarm() {
        assertThat(WarmProgram.isJava("java")).isTrue();
        assertThat(WarmProgram.isJava("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")).isTrue();
        assertThat(WarmProgram.isJava("/usr/bin/python3")).isFalse();
        assertThat(WarmProgram.isJava("./javac")).isFalse();
        assertThat(WarmProgram.isJava(null)).isFalse();
    }
}
