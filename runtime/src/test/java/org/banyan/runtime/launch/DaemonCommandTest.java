package org.banyan.runtime.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DaemonCommandTest {
    @Test
    void aDvmsJvmsCompileEarlyAndUseHugePagesAndOneShotDaemonsDoNot() {
        assertThat(DaemonCommand.jvmForDvm("x.Main")).containsAll(DaemonCommand.DVM_FLAGS)
                .containsAll(DaemonCommand.JVM_FLAGS).contains("-XX:+UseTransparentHugePages", "-XX:Tier3LoadFeedback=100")
                .contains("-Dbanyan.dvm=1").endsWith("x.Main");
        // this test's JVM is no DVM's: its daemons are one-shot, and spawn natively by default
        assertThat(DaemonCommand.jvmFor("x.Main")).doesNotContainAnyElementsOf(DaemonCommand.DVM_FLAGS)
                .doesNotContain("-Dbanyan.dvm=1").containsAll(DaemonCommand.JVM_FLAGS);
    }

    /**
     * The daemons' JVMs start with the launcher script's flags: the AOT cache the script trains
     * is used only by JVMs whose flags match, and a daemon without it starts tens of ms later.
     */
    @Test
    void theDaemonsFlagsAreTheLauncherScripts() throws java.io.IOException {
        java.nio.file.Path script = java.nio.file.Path.of(System.getProperty("user.dir")).resolveSibling("banyan");
        String text = java.nio.file.Files.readString(script);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?s)\nJVM_FLAGS=\\((.*?)\\)").matcher(text);
        assertThat(m.find()).as("JVM_FLAGS=(...) in " + script).isTrue();
        assertThat(java.util.List.of(m.group(1).trim().split("\\s+"))).containsExactlyElementsOf(DaemonCommand.JVM_FLAGS);
    }

    @Test
    void nativeSpawningIsTheDefaultAndJdkIsAskedFor() {
        String before = System.getProperty(SpawnMode.PROPERTY);
        try {
            System.clearProperty(SpawnMode.PROPERTY);
            if (System.getenv("BANYAN_SPAWN") == null) {
                assertThat(SpawnMode.current()).isEqualTo(SpawnMode.NATIVE);
            }
            System.setProperty(SpawnMode.PROPERTY, "jdk");
            assertThat(SpawnMode.current()).isEqualTo(SpawnMode.JDK);
            assertThat(DaemonCommand.jvmFor("x.Main")).contains("-Dbanyan.spawn=jdk");
        } finally {
            if (before == null) {
                System.clearProperty(SpawnMode.PROPERTY);
            } else {
                System.setProperty(SpawnMode.PROPERTY, before);
            }
        }
    }
}
