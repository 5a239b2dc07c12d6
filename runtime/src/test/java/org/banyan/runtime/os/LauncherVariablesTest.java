package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LauncherVariablesTest {
    @Test
    void theVariablesTheLauncherNamedGoWithTheirList() {
        Map<String, String> env = Map.of("_JAVA_SR_SIGNUM", "39", "EXTRA", "1", "PATH", "/bin",
                LauncherVariables.NAMES, " _JAVA_SR_SIGNUM  EXTRA ");
        assertThat(LauncherVariables.removedFrom(env)).containsExactly(Map.entry("PATH", "/bin"));
    }

    @Test
    void withoutTheListNothingIsRemoved() {
        // the user set _JAVA_SR_SIGNUM before running banyan: it is theirs, and their ranks keep it
        Map<String, String> env = new HashMap<>(Map.of("_JAVA_SR_SIGNUM", "40", "PATH", "/bin"));
        LauncherVariables.removeIn(env);
        assertThat(env).containsOnly(Map.entry("_JAVA_SR_SIGNUM", "40"), Map.entry("PATH", "/bin"));
    }
}
