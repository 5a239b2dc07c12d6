package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RankProcessPathsTest {
    @Test
    void aRelativeNameGoesInTheSandboxAndAnAbsoluteOneStaysPut() {
        assertThat(RankProcess.inDir("/s/task.000001", "stdout")).isEqualTo("/s/task.000001/stdout");
        assertThat(RankProcess.inDir("/s/task.000001/", "stderr")).isEqualTo("/s/task.000001/stderr");
        assertThat(RankProcess.inDir("/s/task.000001", "/tmp/in.txt")).isEqualTo("/tmp/in.txt");
        assertThat(RankProcess.inDir(null, "out")).isEqualTo("out");
    }
}
