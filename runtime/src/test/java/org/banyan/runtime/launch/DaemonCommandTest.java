package org.banyan.runtime.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DaemonCommandTest {
    @Test
    void aDvmsJvmsCompileEarlyAndUseHugePagesAndOneShotDaemonsDoNot() {
        assertThat(DaemonCommand.jvmFor("x.Main", SpawnMode.NATIVE)).containsAll(DaemonCommand.DVM_FLAGS)
                .containsAll(DaemonCommand.JVM_FLAGS).contains("-XX:+UseTransparentHugePages", "-XX:Tier3LoadFeedback=100")
                .endsWith("x.Main");
        assertThat(DaemonCommand.jvmFor("x.Main", SpawnMode.JDK)).doesNotContainAnyElementsOf(DaemonCommand.DVM_FLAGS)
                .containsAll(DaemonCommand.JVM_FLAGS);
    }
}
