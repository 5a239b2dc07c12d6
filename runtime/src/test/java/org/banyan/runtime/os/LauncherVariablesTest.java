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

    /** LC_ALL: the command runs its JVMs in C.UTF-8; the ranks get the user's own back, or none. */
    @Test
    void aVariableTheUserHadSetGetsItsValueBack() {
        Map<String, String> env = Map.of("LC_ALL", "C.UTF-8", "BANYAN_USER_LC_ALL", "C", "_JAVA_SR_SIGNUM", "39",
                LauncherVariables.NAMES, "_JAVA_SR_SIGNUM LC_ALL", "PATH", "/bin");
        assertThat(LauncherVariables.removedFrom(env)).containsOnly(Map.entry("LC_ALL", "C"), Map.entry("PATH", "/bin"));
        Map<String, String> unset = Map.of("LC_ALL", "C.UTF-8", LauncherVariables.NAMES, "LC_ALL", "LANG", "de_DE.UTF-8");
        assertThat(LauncherVariables.removedFrom(unset)).containsOnly(Map.entry("LANG", "de_DE.UTF-8"));
    }

    /** A daemon a head started as its helper inherits the head's mark; its ranks are no helpers. */
    @Test
    void theHelperMarkGoesWithOrWithoutTheList() {
        assertThat(LauncherVariables.removedFrom(Map.of(Subreaper.HELPER, "4242", "PATH", "/bin")))
                .containsOnly(Map.entry("PATH", "/bin"));
    }
}
