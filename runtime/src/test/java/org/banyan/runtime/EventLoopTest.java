package org.banyan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EventLoopTest {
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @Test
    void tryDispatchHandlesOnTheCallerThenTheIdleEventAndStepsBackWhileTheCoreIsBusy() throws Exception {
        EventLoop<String> loop = new EventLoop<>("idle");
        CountDownLatch inSlow = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread runner = Thread.ofPlatform().name("loop").start(() -> {
            try {
                loop.run(e -> {
                    seen.add(e + "@" + (Thread.currentThread().getName().startsWith("loop") ? "loop" : "caller"));
                    if (e.equals("slow")) {
                        inSlow.countDown();
                        release.await();
                    }
                    return !e.equals("stop");
                });
            } catch (Exception ex) {
                seen.add("failed " + ex);
            }
        });
        Thread.sleep(100); // the loop waits for events
        assertThat(loop.tryDispatch("a")).isTrue();
        assertThat(seen).containsExactly("a@caller", "idle@caller");

        loop.post("slow");
        assertThat(inSlow.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(loop.tryDispatch("b")).as("the core is busy: nothing done").isFalse();
        release.countDown();
        loop.post("stop");
        runner.join(5_000);
        assertThat(seen).doesNotContain("b@caller", "b@loop").contains("slow@loop").last().isEqualTo("stop@loop");
    }
}
