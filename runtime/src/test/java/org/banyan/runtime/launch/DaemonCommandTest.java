package org.banyan.runtime.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DaemonCommandTest {
    @Test
    void aDvmsJvmsCompileEarlyAndOneShotDaemonsDoNot() {
        assertThat(DaemonCommand.jvmFor("x.Main", SpawnMode.NATIVE)).containsAll(DaemonCommand.EARLY_COMPILE_FLAGS)
                .containsAll(DaemonCommand.JVM_FLAGS).endsWith("x.Main");
        assertThat(DaemonCommand.jvmFor("x.Main", SpawnMode.JDK)).doesNotContainAnyElementsOf(DaemonCommand.EARLY_COMPILE_FLAGS)
                .containsAll(DaemonCommand.JVM_FLAGS);
    }
}
