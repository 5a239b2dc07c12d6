package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Neighbour collectives on cartesian grids, MPI's neighbour order (per dimension one step back,
 * then one step forward; PROC_NULL places left alone), and alltoallw on a distributed graph,
 * over shared memory and TCP.
 */
class NeighborCollectivesTest {
    /**
     * A periodic ring of 2, where both neighbours of a rank are the other rank: the block sent
     * back must arrive in the other's forward place and the reverse (matched by order alone they
     * would cross). Then a non-periodic 1-D line of 3, whose ends have a PROC_NULL neighbour.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void gridNeighboursGetTheirBlocksInMpisOrder(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            StringBuilder s = new StringBuilder(me + ":");
            Cartesian ring = Cartesian.create(w, new int[] {2}, new boolean[] {true});
            if (ring != null) {
                int[] out = {100 * me + 1, 100 * me + 2}; // to the one back, to the one forward
                int[] in = new int[2];
                ring.neighborAlltoall(out, in, 1);
                s.append(" ring ").append(Arrays.toString(in));
                float[] everyone = new float[2];
                ring.neighborAllgather(new float[] {me + 0.5f}, everyone);
                s.append(Arrays.toString(everyone));
                ring.comm().close();
            }
            Cartesian line = Cartesian.create(w, new int[] {3}, new boolean[] {false});
            long[] in = {-1, -1};
            line.neighborAlltoall(new long[] {10 * me, 10 * me + 1}, in, 1);
            s.append(" line ").append(Arrays.toString(in));
            byte[] got2 = {-1, -1, -1, -1};
            line.neighborAllgatherv(new byte[] {(byte) me, (byte) me}, got2, new int[] {2, 2}, new int[] {0, 2});
            s.append(Arrays.toString(got2));
            return s.toString();
        });
        // rank 0's back neighbour (1) sent its forward block (101) to it, its forward neighbour (1) its back block (102)... and
        // in a line, rank r gets r - 1's forward block in place 0 and r + 1's back block in place 1
        assertThat(got).containsExactly(
                "0: ring [102, 101][1.5, 1.5] line [-1, 10][-1, -1, 1, 1]",
                "1: ring [2, 1][0.5, 0.5] line [1, 20][0, 0, 2, 2]",
                "2: line [11, -1][1, 1, -1, -1]");
    }

    /** A 2-D periodic grid of 2 × 2: each rank's four places, dimension by dimension. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aTwoDimensionalGridFillsFourPlaces(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(4, shm, w -> {
            Cartesian grid = Cartesian.create(w, new int[] {2, 2}, new boolean[] {true, true});
            double[] out = new double[4];
            for (int i = 0; i < 4; i++) {
                out[i] = 10 * w.rank() + i;
            }
            double[] in = new double[4];
            grid.neighborAlltoall(out, in, 1);
            return Arrays.toString(in);
        });
        // place 0 (back in dim 0) gets that neighbour's forward-in-dim-0 block (index 1), place 1 its back block (0), and so on
        assertThat(got).containsExactly(
                "[21.0, 20.0, 13.0, 12.0]",
                "[31.0, 30.0, 3.0, 2.0]",
                "[1.0, 0.0, 33.0, 32.0]",
                "[11.0, 10.0, 23.0, 22.0]");
    }

    /**
     * MPI_Neighbor_alltoallw on a ring graph: each rank sends its right neighbour two ints as
     * ints and its left neighbour a strided pair, received with a type per source.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void alltoallwOnAGraphTakesATypePerNeighbour(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            int left = (me + 2) % 3;
            int right = (me + 1) % 3;
            DistGraph g = DistGraph.createAdjacent(w, new int[] {left, right}, new int[] {right, left});
            Datatype anInt = Datatype.of(Elem.INT);
            Datatype everyOther = Datatype.vector(2, 1, 2, anInt);
            int[] send = {me, 10 + me, 20 + me, 30 + me};
            // to the right: ints 0-1 as two ints; to the left: ints 0 and 2 as one strided element
            int[] recv = new int[6];
            Arrays.fill(recv, -1);
            g.neighborAlltoallw(send, new int[] {2, 1}, new long[] {0, 0}, new Datatype[] {anInt, everyOther},
                    recv, new int[] {1, 2}, new long[] {0, 12}, new Datatype[] {everyOther, anInt});
            return Arrays.toString(recv);
        });
        // from the left (who sent me its ints 0-1) into places 0 and 2; from the right (its ints 0 and 2) into places 3 and 4
        assertThat(got).containsExactly(
                "[2, -1, 12, 1, 21, -1]",
                "[0, -1, 10, 2, 22, -1]",
                "[1, -1, 11, 0, 20, -1]");
    }

    /** The non-blocking neighbour collectives: a grid's and a graph's started together, awaited in the other order. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void nonBlockingNeighbourCollectivesCompleteAsTheBlockingOnes(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            Cartesian ring = Cartesian.create(w, new int[] {3}, new boolean[] {true});
            DistGraph g = DistGraph.createAdjacent(w, new int[] {(me + 2) % 3}, new int[] {(me + 1) % 3});
            int[] fromGrid = new int[2];
            Request a = ring.ineighborAlltoall(new int[] {10 * me, 10 * me + 1}, fromGrid, 1);
            byte[] fromGraph = {-1, -1, -1};
            Request b = g.ineighborAllgatherv(new byte[] {(byte) me, (byte) me}, fromGraph, new int[] {2}, new int[] {1});
            Request.awaitAll(b, a);
            return Arrays.toString(fromGrid) + Arrays.toString(fromGraph);
        });
        assertThat(got).containsExactly("[21, 10][-1, 2, 2]", "[1, 20][-1, 0, 0]", "[11, 0][-1, 1, 1]");
    }

    /**
     * A neighbour that sends more than its peer's count, and one that sends less: each said as
     * the collective's error naming the source, not as the transport's truncation.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void countsThatDifferBetweenNeighboursAreSaid(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(2, shm, w -> {
            int me = w.rank();
            Cartesian line = Cartesian.create(w, new int[] {2}, new boolean[] {false});
            String said = "";
            for (int sent : new int[] {2, 0}) {
                int[] sendCounts = {0, me == 0 ? sent : 0};
                int[] recvCounts = {me == 1 ? 1 : 0, 0};
                try {
                    line.neighborAlltoallv(new double[2], sendCounts, new int[] {0, 0}, new double[2], recvCounts, new int[] {0, 0});
                    said += " accepted";
                } catch (CommException e) {
                    said += " " + e.getMessage();
                }
            }
            return said;
        });
        assertThat(got).containsExactly(" accepted accepted",
                " neighborAlltoallv: source 0 (rank 0) sent 16 bytes where 8 were expected; the ranks called it with different counts"
                        + " neighborAlltoallv: source 0 (rank 0) sent 0 bytes where 8 were expected; the ranks called it with different"
                        + " counts");
    }
}
