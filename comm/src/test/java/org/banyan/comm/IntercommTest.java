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

    /**
     * The collectives across the two groups of the test above: a bcast, a gather, a scatter and
     * a reduce each from one group's root to the other group (MPI_ROOT, PROC_NULL), allreduce and
     * allgather giving each group the other's, an alltoall between them, and barriers between.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void collectivesGoFromOneGroupToTheOther(boolean shm) throws Exception {
        List<String> got = LocalJob.run(5, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            boolean manager = w.rank() < 2;
            Comm mine = w.split(manager ? 0 : 1, w.rank());
            try (Intercomm ic = Intercomm.create(mine, 0, w, manager ? 2 : 0, 6)) {
                int me = ic.rank();
                long[] b = {manager && me == 0 ? 42 : -1};
                ic.bcast(b, manager ? (me == 0 ? Intercomm.ROOT : Comm.PROC_NULL) : 0);
                ic.barrier();
                long[] sum = new long[1];
                ic.allreduce(new long[] {w.rank()}, sum, Op.SUM);
                long[] others = new long[ic.remoteSize()];
                ic.allgather(new long[] {w.rank()}, others);
                long[] sent = new long[ic.remoteSize()];
                for (int j = 0; j < sent.length; j++) {
                    sent[j] = 100L * w.rank() + j;
                }
                long[] swapped = new long[ic.remoteSize()];
                ic.alltoall(sent, swapped);
                long[] gathered = !manager && me == 1 ? new long[2] : null;
                ic.gather(new long[] {w.rank() * 7L}, gathered, manager ? 1 : (me == 1 ? Intercomm.ROOT : Comm.PROC_NULL));
                long[] dealt = new long[1];
                ic.scatter(manager && me == 1 ? new long[] {5, 6, 7} : null, manager ? null : dealt,
                        manager ? (me == 1 ? Intercomm.ROOT : Comm.PROC_NULL) : 1);
                long[] reduced = new long[1];
                ic.reduce(new long[] {manager ? 0 : dealt[0]}, manager && me == 0 ? reduced : null, Op.SUM,
                        manager ? (me == 0 ? Intercomm.ROOT : Comm.PROC_NULL) : 0);
                ic.barrier();
                return w.rank() + ": " + b[0] + " " + sum[0] + " " + java.util.Arrays.toString(others) + " "
                        + java.util.Arrays.toString(swapped) + " " + (gathered == null ? "-" : java.util.Arrays.toString(gathered)) + " "
                        + (manager ? "-" : dealt[0]) + " " + (manager && me == 0 ? reduced[0] : "-");
            }
        });
        assertThat(got).containsExactly(
                "0: 42 9 [2, 3, 4] [200, 300, 400] - - 18",
                "1: -1 9 [2, 3, 4] [201, 301, 401] - - -",
                "2: 42 1 [0, 1] [0, 100] - 5 -",
                "3: 42 1 [0, 1] [1, 101] [0, 7] 6 -",
                "4: 42 1 [0, 1] [2, 102] - 7 -");
    }

    /** Probes and matched probes across the groups: a message found by tag, taken out of matching, received once. */
    @org.junit.jupiter.api.Test
    void probesSeeTheRemoteGroupsMessages() throws Exception {
        List<String> got = LocalJob.run(3, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            boolean sender = w.rank() == 0;
            Comm mine = w.split(sender ? 0 : 1, w.rank());
            try (Intercomm ic = Intercomm.create(mine, 0, w, sender ? 1 : 0, 9)) {
                if (sender) {
                    ic.send(new int[] {3, 3, 3}, 1, 3);
                    ic.send(new int[] {4}, 1, 4);
                    ic.barrier();
                    return "sent";
                }
                if (ic.rank() == 0) {
                    ic.barrier();
                    return "idle " + ic.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG);
                }
                Status four = ic.probe(Comm.ANY_SOURCE, 4);
                Message three = ic.mprobe(0, 3);
                int[] got3 = new int[3];
                ic.mrecv(got3, three);
                assertThatThrownBy(() -> ic.mrecv(new int[3], three)).hasMessageContaining("was received already");
                Message other = mine.improbe(Comm.ANY_SOURCE, Comm.ANY_TAG);
                int[] got4 = new int[1];
                ic.recv(got4, 0, 4);
                ic.barrier();
                return four.source() + "/" + four.tag() + "/" + four.bytes() + " " + java.util.Arrays.toString(got3) + " " + got4[0] + " "
                        + other;
            }
        });
        assertThat(got).containsExactly("sent", "idle null", "0/4/4 [3, 3, 3] 4 null");
    }

    /** A manager that leaves without its bcast: the workers waiting for it across the groups are told, not left waiting. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRootThatLeavesEndsTheOtherGroupsWait(boolean shm) throws Exception {
        List<String> got = LocalJob.run(3, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            boolean manager = w.rank() == 0;
            Comm mine = w.split(manager ? 0 : 1, w.rank());
            Intercomm ic = Intercomm.create(mine, 0, w, manager ? 1 : 0, 1);
            if (manager) {
                return "left";
            }
            try {
                ic.bcast(new int[1], 0);
                return "got a bcast";
            } catch (CommException e) {
                return e.getMessage().substring(0, e.getMessage().indexOf(" while"));
            }
        });
        assertThat(got).containsExactly("left", "rank 0 closed the world (its MPI_Finalize)",
                "rank 1 closed the world (its MPI_Finalize)");
    }
}
