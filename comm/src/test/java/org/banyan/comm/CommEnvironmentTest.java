package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MPI_Comm_compare, MPI_Reduce_local and MPI_Testsome. */
class CommEnvironmentTest {
    @Test
    void communicatorsCompareAsMpisDo() throws Exception {
        List<String> got = LocalJob.run(3, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            Comm dup = w.dup();
            Comm reversed = w.split(0, -w.rank());
            Comm pair = w.split(w.rank() < 2 ? 0 : 1, 0);
            return w.compare(w) + " " + w.compare(dup) + " " + w.compare(reversed) + " " + w.compare(pair) + " "
                    + w.compare(w.self()) + " " + dup.compare(reversed) + " " + w.compare(null);
        });
        assertThat(got).containsOnly("IDENT CONGRUENT SIMILAR UNEQUAL UNEQUAL SIMILAR UNEQUAL");
    }

    @Test
    void reduceLocalCombinesInPlaceWithNoCommunication() {
        double[] inout = {1, 2, 3};
        Op.SUM.reduceLocal(new double[] {10, 20, 30}, inout);
        assertThat(inout).containsExactly(11, 22, 33);
        int[] pairs = {5, 1, 7, 1};
        Op.MINLOC.reduceLocal(new int[] {5, 0, 9, 0}, pairs); // equal values: the smaller index
        assertThat(pairs).containsExactly(5, 0, 7, 1);
        long[] l = {6};
        Op.BAND.reduceLocal(new long[] {3}, l);
        assertThat(l).containsExactly(2);
        Op minus = Op.ofDoubles((in, io) -> in - io, false); // in holds the lower ranks' part
        double[] d = {1};
        minus.reduceLocal(new double[] {10}, d);
        assertThat(d).containsExactly(9);
    }

    @Test
    void reduceLocalRefusesWhatItCannotDo() {
        assertThatThrownBy(() -> Op.SUM.reduceLocal(new double[2], new double[3]))
                .hasMessage("reduceLocal: 2 elements in, 3 in and out");
        assertThatThrownBy(() -> Op.MAXLOC.reduceLocal(new int[3], new int[3]))
                .hasMessage("reduceLocal: MAXLOC takes (value, index) pairs: an even number of elements, not 3");
        assertThatThrownBy(() -> Op.BXOR.reduceLocal(new double[1], new double[1])).isInstanceOf(CommException.class);
        assertThatThrownBy(() -> Op.SUM.reduceLocal(java.lang.foreign.MemorySegment.ofArray(new int[2]),
                java.lang.foreign.MemorySegment.ofArray(new int[4]), Elem.INT, 3)).hasMessageStartingWith("reduceLocal: 3 elements");
    }

    @Test
    void testSomeSaysWhichAreDoneWithoutWaiting() throws Exception {
        List<String> got = LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            if (w.rank() == 0) {
                int[] a = new int[1];
                int[] b = new int[1];
                List<Request> rs = List.of(w.irecv(a, 1, 1), w.irecv(b, 1, 2));
                List<Integer> none = Request.testSome(rs);
                w.barrier(); // rank 1 sends tag 2 only after this
                List<Integer> some = List.of();
                while (some.isEmpty()) {
                    some = Request.testSome(rs);
                }
                w.send(new int[] {0}, 1, 3);
                rs.get(0).await();
                return none + " " + some + " " + b[0] + " " + Request.testSome(rs) + " " + a[0];
            }
            w.barrier();
            w.send(new int[] {42}, 0, 2);
            w.recv(new int[1], 0, 3);
            w.send(new int[] {41}, 0, 1);
            return "";
        });
        assertThat(got.getFirst()).isEqualTo("[] [1] 42 [0, 1] 41");
    }
}
