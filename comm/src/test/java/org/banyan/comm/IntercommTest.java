package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Intercommunicators: two groups exchanging by remote ranks, and merged into one. Over shared memory and TCP. */
class IntercommTest {
    /**
     * World ranks 0-1 (a manager group) and 2-4 (workers): each manager sends to the worker of
     * its own rank, workers answer their manager with ANY_SOURCE receives seeing local ranks as
     * sources; then the managers merge as the high group, so the workers come first.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void twoGroupsExchangeByRemoteRanksAndMerge(boolean shm) throws Exception {
        List<String> got = LocalJob.run(5, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            boolean manager = w.rank() < 2;
            Comm mine = w.split(manager ? 0 : 1, w.rank());
            try (Intercomm ic = Intercomm.create(mine, 0, w, manager ? 2 : 0, 5)) {
                StringBuilder said = new StringBuilder(w.rank() + ": " + ic.rank() + "/" + ic.size() + " remote " + ic.remoteSize());
                if (manager) {
                    ic.send(new long[] {100 + ic.rank()}, ic.rank(), 1);
                    long[] answer = new long[1];
                    Status st = ic.recv(answer, Comm.ANY_SOURCE, 2);
                    said.append(" answer ").append(answer[0]).append(" from ").append(st.source());
                } else if (ic.rank() < 2) {
                    long[] task = new long[1];
                    Status st = ic.recv(task, Comm.ANY_SOURCE, 1);
                    said.append(" task ").append(task[0]).append(" from ").append(st.source());
                    ic.send(new long[] {task[0] * 10 + ic.rank()}, st.source(), 2);
                }
                Comm all = ic.merge(manager);
                int[] sum = new int[1];
                all.allreduce(new int[] {w.rank()}, sum, Op.SUM);
                said.append(" merged ").append(all.rank()).append("/").append(all.size()).append(" sum ").append(sum[0]);
                assertThatThrownBy(() -> ic.send(new int[1], 3, 0)).hasMessageContaining("destination rank 3 is out of range");
                return said.toString();
            }
        });
        assertThat(got).containsExactly(
                "0: 0/2 remote 3 answer 1000 from 0 merged 3/5 sum 10",
                "1: 1/2 remote 3 answer 1011 from 1 merged 4/5 sum 10",
                "2: 0/3 remote 2 task 100 from 0 merged 0/5 sum 10",
                "3: 1/3 remote 2 task 101 from 1 merged 1/5 sum 10",
                "4: 2/3 remote 2 merged 2/5 sum 10");
    }

    /** Groups that share a process are refused on every rank, each with the same line. */
    @org.junit.jupiter.api.Test
    void overlappingGroupsAreRefused() throws Exception {
        List<String> got = LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            try {
                Intercomm.create(w, 0, w, 0, 3);
                return "accepted";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(got).containsOnly("Intercomm.create: world rank 0 is in both groups; they must not share a process");
    }
}
