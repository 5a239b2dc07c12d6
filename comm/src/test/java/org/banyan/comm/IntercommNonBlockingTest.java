package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An intercommunicator's non-blocking collectives, over shared memory and TCP. */
class IntercommNonBlockingTest {
    /**
     * World ranks 0-1 (managers) and 2-4 (workers): the collectives of IntercommTest's
     * collectivesGoFromOneGroupToTheOther, all started before any is awaited, then a blocking
     * barrier that must wait for them (each request is done when it returns), then a reduce of
     * what the scatter dealt, and the "v" forms.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void startedTogetherTheyGiveWhatTheBlockingOnesGive(boolean shm) throws Exception {
        List<String> got = LocalJob.run(5, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            boolean manager = w.rank() < 2;
            Comm mine = w.split(manager ? 0 : 1, w.rank());
            try (Intercomm ic = Intercomm.create(mine, 0, w, manager ? 2 : 0, 6)) {
                int me = ic.rank();
                long[] b = {manager && me == 0 ? 42 : -1};
                long[] sum = new long[1];
                long[] others = new long[ic.remoteSize()];
                long[] sent = new long[ic.remoteSize()];
                for (int j = 0; j < sent.length; j++) {
                    sent[j] = 100L * w.rank() + j;
                }
                long[] swapped = new long[ic.remoteSize()];
                long[] gathered = !manager && me == 1 ? new long[2] : null;
                long[] dealt = new long[1];
                List<Request> started = List.of(
                        ic.ibcast(b, manager ? (me == 0 ? Intercomm.ROOT : Comm.PROC_NULL) : 0),
                        ic.ibarrier(),
                        ic.iallreduce(new long[] {w.rank()}, sum, Op.SUM),
                        ic.iallgather(new long[] {w.rank()}, others),
                        ic.ialltoall(sent, swapped),
                        ic.igather(new long[] {w.rank() * 7L}, gathered, manager ? 1 : (me == 1 ? Intercomm.ROOT : Comm.PROC_NULL)),
                        ic.iscatter(manager && me == 1 ? new long[] {5, 6, 7} : null, manager ? null : dealt,
                                manager ? (me == 1 ? Intercomm.ROOT : Comm.PROC_NULL) : 1));
                ic.barrier(); // behind every one started before
                boolean allDone = started.stream().allMatch(Request::test);
                long[] reduced = new long[1];
                ic.ireduce(new long[] {manager ? 0 : dealt[0]}, manager && me == 0 ? reduced : null, Op.SUM,
                        manager ? (me == 0 ? Intercomm.ROOT : Comm.PROC_NULL) : 0).await();
                // each worker gives its rank+1 values to the managers, who gather them all
                int[] counts = {1, 2, 3};
                int[] displs = {0, 1, 3};
                int[] all = new int[manager ? 6 : 0];
                int[] theirs = new int[manager ? 0 : me + 1];
                Arrays.fill(theirs, w.rank());
                Request v = ic.iallgatherv(manager ? new int[0] : theirs, manager ? all : new int[0], manager ? counts : new int[] {0, 0},
                        manager ? displs : new int[] {0, 0});
                v.await();
                return w.rank() + ": " + allDone + " " + b[0] + " " + sum[0] + " " + Arrays.toString(others) + " "
                        + Arrays.toString(swapped) + " " + (gathered == null ? "-" : Arrays.toString(gathered)) + " "
                        + (manager ? "-" : dealt[0]) + " " + (manager && me == 0 ? reduced[0] : "-") + " "
                        + (manager ? Arrays.toString(all) : "-");
            }
        });
        assertThat(got).containsExactly(
                "0: true 42 9 [2, 3, 4] [200, 300, 400] - - 18 [2, 3, 3, 4, 4, 4]",
                "1: true -1 9 [2, 3, 4] [201, 301, 401] - - - [2, 3, 3, 4, 4, 4]",
                "2: true 42 1 [0, 1] [0, 100] - 5 - -",
                "3: true 42 1 [0, 1] [1, 101] [0, 7] 6 - -",
                "4: true 42 1 [0, 1] [2, 102] - 7 - -");
    }
}
