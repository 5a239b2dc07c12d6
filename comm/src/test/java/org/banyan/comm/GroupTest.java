package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Groups as MPI's: made and combined without communication, and a communicator made of one. */
class GroupTest {
    @Test
    void groupsCombineAndMakeCommunicators() throws Exception {
        List<String> got = LocalJob.run(5, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            Group all = w.group();
            Group evens = all.incl(4, 2, 0); // in that order
            assertThat(all.rangeIncl(new int[][] {{4, 0, -2}}).compare(evens)).isEqualTo(Group.Comparison.IDENT);
            assertThat(all.rangeExcl(new int[][] {{0, 4, 2}}).toString()).isEqualTo("Group[1, 3]");
            Group odds = all.excl(0, 2, 4);
            String algebra = evens.size() + " " + odds.size() + " " + evens.union(odds) + " " + all.intersection(evens) + " "
                    + all.difference(evens) + " " + Arrays.toString(all.translateRanks(new int[] {0, 1, 4}, evens)) + " "
                    + evens.compare(all.incl(4, 2, 0)) + " " + evens.compare(all.incl(0, 2, 4)) + " " + evens.compare(odds);
            Comm c = w.create(evens);
            if (c == null) {
                return w.rank() + " out " + evens.rank();
            }
            int[] sum = new int[1];
            c.allreduce(new int[] {w.rank()}, sum, Op.SUM);
            return w.rank() + " as " + c.rank() + " of " + c.size() + " sum " + sum[0] + (w.rank() == 0 ? " | " + algebra : "");
        });
        assertThat(got).containsExactly(
                "0 as 2 of 3 sum 6 | 3 2 Group[4, 2, 0, 1, 3] Group[0, 2, 4] Group[1, 3] [2, -32766, 0] IDENT SIMILAR UNEQUAL",
                "1 out -32766", "2 as 1 of 3 sum 6", "3 out -32766", "4 as 0 of 3 sum 6");
    }

    /**
     * MPI_COMM_SELF: made by each process alone (here by rank 1 only, while rank 0 does not call
     * it), one rank, its own messages; communicators made after it keep theirs apart, self sends
     * included.
     */
    @Test
    void selfIsTheProcessAloneAndKeepsItsMessagesApart() throws Exception {
        List<String> got = LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            if (w.rank() == 1) {
                Comm self = w.self();
                assertThat(w.self()).isSameAs(self);
                assertThat(self.size()).isEqualTo(1);
                assertThat(self.rank()).isZero();
                assertThat(self.worldRank(0)).isEqualTo(1);
                self.send(new int[] {41}, 0, 5);
            }
            Comm dup = w.dup();
            int[] one = new int[1];
            if (w.rank() == 1) {
                dup.send(new int[] {7}, 1, 5); // same tag, same process: must not meet self's
                dup.recv(one, 1, 5);
                int[] mine = new int[1];
                w.self().recv(mine, 0, 5);
                int[] sum = new int[1];
                w.self().allreduce(mine, sum, Op.SUM);
                return "self " + mine[0] + " " + sum[0] + " dup " + one[0];
            }
            return "rank 0 " + dup.size();
        });
        assertThat(got).containsExactly("rank 0 2", "self 41 41 dup 7");
    }

    @Test
    void badRanksAreClearErrors() throws Exception {
        LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            assertThatThrownBy(() -> w.group().incl(2)).hasMessage("rank 2 is out of range: the group has ranks 0 to 1");
            assertThatThrownBy(() -> w.group().incl(1, 1)).hasMessage("rank 1 is named twice");
            assertThat(w.group().rangeIncl(new int[][] {{1, 0, -1}}).toString()).isEqualTo("Group[1, 0]");
            assertThat(w.group().rangeExcl(new int[][] {{0, 0, 5}}).toString()).isEqualTo("Group[1]");
            assertThatThrownBy(() -> w.group().rangeIncl(new int[][] {{0, 1, 0}})).hasMessageContaining("a stride other than 0");
            assertThatThrownBy(() -> w.group().rangeIncl(new int[][] {{0, 7, 1}})).hasMessageContaining("rank 7 is out of range");
            return null;
        });
    }

    /**
     * MPI_Comm_create_group: ranks 1 and 3 make a communicator while 0, 2 and 4 make another at
     * the same time with a different tag, and nobody else calls; each works on its own, and a
     * later communicator of everyone still gets a context of its own.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void onlyTheGroupsMembersCreateItsCommunicator(boolean shm) throws Exception {
        List<String> got = LocalJob.run(5, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            Group g = w.rank() % 2 == 1 ? w.group().incl(3, 1) : w.group().incl(0, 2, 4);
            Comm c = w.createGroup(g, w.rank() % 2 == 1 ? 7 : 8);
            int[] sum = new int[1];
            c.allreduce(new int[] {w.rank()}, sum, Op.SUM);
            int[] toRight = {-1};
            c.sendrecv(new int[] {w.rank()}, (c.rank() + 1) % c.size(), 0, toRight, (c.rank() + c.size() - 1) % c.size(), 0);
            Comm all = w.dup();
            int[] total = new int[1];
            all.allreduce(new int[] {1}, total, Op.SUM);
            assertThatThrownBy(() -> w.createGroup(w.group().excl(w.rank()), 1)).hasMessageContaining("this rank is not in the group");
            assertThatThrownBy(() -> w.createGroup(g, -1)).hasMessageContaining("tag -1 is outside");
            return w.rank() + " as " + c.rank() + " of " + c.size() + " sum " + sum[0] + " from " + toRight[0] + " all " + total[0];
        });
        assertThat(got).containsExactly("0 as 0 of 3 sum 6 from 4 all 5", "1 as 1 of 2 sum 4 from 3 all 5", "2 as 1 of 3 sum 6 from 0 all 5",
                "3 as 0 of 2 sum 4 from 1 all 5", "4 as 2 of 3 sum 6 from 2 all 5");
    }
}
