package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.banyan.core.daemon.Signals;
import org.junit.jupiter.api.Test;

class ProcessSignallerTest {
    /** A shell with two sleeps, one of them under a second shell: three levels of a tree. */
    private static Process tree() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "sleep 60 & sh -c 'sleep 61; true' & wait").start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.toHandle().descendants().count() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return p;
    }

    @Test
    void theKernelsChildListsFindWhatTheJdksWalkOfEveryProcessFinds() throws Exception {
        Process p = tree();
        try {
            List<Long> fromProc = ProcessSignaller.descendantsFromProc(p.pid());
            List<Long> fromJdk = p.toHandle().descendants().map(ProcessHandle::pid).toList();
            assertThat(fromJdk).hasSize(3);
            assertThat(fromProc).containsExactlyInAnyOrderElementsOf(fromJdk);
        } finally {
            p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void signallingTheTreeEndsEveryProcessInIt() throws Exception {
        Process p = tree();
        List<ProcessHandle> below = p.toHandle().descendants().toList();
        ProcessSignaller.signalTree(p.toHandle(), Signals.SIGKILL);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        for (ProcessHandle h : below) {
            h.onExit().get(10, TimeUnit.SECONDS);
            assertThat(h.isAlive()).as("pid %d", h.pid()).isFalse();
        }
    }
}
