package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessScanTest {
    @Test
    void aCommandWithSpacesAndParenthesesDoesNotShiftTheFields() {
        String stat = "4242 (a (b) c) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10";
        assertThat(ProcessScan.parse(4242, stat)).isEqualTo(new ProcessScan.Proc(4242, 17, 4242, 'S', 987654));
        assertThat(ProcessScan.parse(1, "1 (x) Z 0")).as("too short").isNull();
    }

    @Test
    void thisProcessIsFoundWithItsParentAndItsEnvironmentIsRead() {
        long self = ProcessHandle.current().pid();
        long parent = ProcessHandle.current().parent().orElseThrow().pid();
        assertThat(ProcessScan.of(self)).satisfies(p -> {
            assertThat(p.pid()).isEqualTo(self);
            assertThat(p.ppid()).isEqualTo(parent);
            assertThat(p.zombie()).isFalse();
        });
        assertThat(ProcessScan.childrenOf(parent)).extracting(ProcessScan.Proc::pid).contains(self);
        assertThat(ProcessScan.environ(self)).containsEntry("PATH", System.getenv("PATH"));
        assertThat(ProcessScan.environ(Long.MAX_VALUE)).isEmpty();
    }

    /** A zombie is among its parent's children: the daemon reaps strays that ended by themselves. */
    @Test
    void aZombieChildIsFoundAsOne() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "true & exec sleep 5").start(); // the exec'd sleep never waits for true
        try {
            java.util.List<ProcessScan.Proc> children = java.util.List.of();
            for (int i = 0; i < 100 && children.stream().noneMatch(ProcessScan.Proc::zombie); i++) {
                Thread.sleep(20);
                children = ProcessScan.childrenOf(p.pid());
            }
            assertThat(children).singleElement().satisfies(c -> {
                assertThat(c.zombie()).isTrue();
                assertThat(c.ppid()).isEqualTo(p.pid());
            });
            assertThat(ProcessScan.treeOf(ProcessScan.of(p.pid()))).extracting(ProcessScan.Proc::pid)
                    .containsExactly(p.pid(), children.getFirst().pid());
        } finally {
            p.destroyForcibly().waitFor();
        }
    }
}
