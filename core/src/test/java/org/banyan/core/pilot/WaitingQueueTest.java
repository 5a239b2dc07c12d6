package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WaitingQueueTest {
    private static AgentTask task(long seq, int priority) {
        TaskRequest r = new TaskRequest("t" + seq, "/bin/true", List.of(), Map.of(), "/s", "o", "e", null, List.of(),
                List.of(), SlotRequest.cores(1), priority, false, 0, false, List.of());
        return new AgentTask((int) seq, seq, r);
    }

    /** The order the agent promises: higher priority first, then the order submitted. */
    private static PriorityQueue<AgentTask> reference() {
        return new PriorityQueue<>((a, b) -> a.request.priority() != b.request.priority()
                ? Integer.compare(b.request.priority(), a.request.priority()) : Long.compare(a.seq, b.seq));
    }

    @Test
    void oneBagComesOutInTheOrderSubmitted() {
        WaitingQueue q = new WaitingQueue();
        for (int i = 0; i < 1000; i++) {
            q.add(task(i, 0));
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(q.poll().seq).isEqualTo(i);
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.poll()).isNull();
    }

    @Test
    void tasksPassedOverOrWithdrawnComeBackInTheirPlaceAmongPrioritiesOverManySeeds() {
        for (long seed = 1; seed <= 300; seed++) {
            Random rnd = new Random(seed);
            WaitingQueue q = new WaitingQueue();
            PriorityQueue<AgentTask> ref = reference();
            List<AgentTask> out = new ArrayList<>();
            long seq = 0;
            for (int step = 0; step < 400; step++) {
                int op = rnd.nextInt(10);
                if (op < 5) { // a new task, of one of a few priorities
                    AgentTask t = task(seq++, rnd.nextInt(10) < 7 ? 0 : rnd.nextInt(3) - 1);
                    q.add(t);
                    ref.add(t);
                } else if (op < 8) { // polled: kept out (started) or put back (passed over, withdrawn)
                    AgentTask t = q.poll();
                    assertThat(t).as("seed %d step %d", seed, step).isSameAs(ref.poll());
                    if (t != null && rnd.nextBoolean()) {
                        out.add(t);
                    }
                } else if (!out.isEmpty()) { // some come back at once, as a pass's skipped ones do
                    List<AgentTask> back = new ArrayList<>();
                    for (int k = rnd.nextInt(out.size()) + 1; k > 0; k--) {
                        back.add(out.remove(rnd.nextInt(out.size())));
                    }
                    q.addAll(back);
                    ref.addAll(back);
                }
                assertThat(q.size()).isEqualTo(ref.size());
            }
            while (!ref.isEmpty()) {
                assertThat(q.poll()).as("seed %d draining", seed).isSameAs(ref.poll());
            }
            assertThat(q.isEmpty()).isTrue();
        }
    }
}
