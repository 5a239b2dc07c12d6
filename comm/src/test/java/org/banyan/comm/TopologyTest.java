package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Topologies as MPI's: cartesian grids (row-major coordinates, shifts with PROC_NULL at closed edges, sub-grids), split_type(SHARED), distributed graphs. */
class TopologyTest {
    @Test
    void dimsAreAsEqualAsTheyCanBeLargestFirst() {
        assertThat(Cartesian.dims(12, 2)).containsExactly(4, 3);
        assertThat(Cartesian.dims(16, 2)).containsExactly(4, 4);
        assertThat(Cartesian.dims(6, 3)).containsExactly(3, 2, 1);
        assertThat(Cartesian.dims(7, 2)).containsExactly(7, 1);
        assertThat(Cartesian.dims(1, 1)).containsExactly(1);
        assertThatThrownBy(() -> Cartesian.dims(0, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A 3 × 2 grid over 7 ranks: the seventh is left out; rows periodic, columns not; a halo exchange along each. */
    @Test
    void aGridGivesCoordinatesNeighboursAndSubGrids() throws Exception {
        List<String> got = LocalJob.run(7, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            Cartesian g = Cartesian.create(w, new int[] {3, 2}, new boolean[] {true, false});
            if (g == null) {
                return "left out";
            }
            Comm c = g.comm();
            Cartesian.Shift down = g.shift(0, 1);
            Cartesian.Shift right = g.shift(1, 1);
            int[] fromAbove = {-9};
            c.sendrecv(new int[] {c.rank()}, down.dest(), 0, fromAbove, down.source(), 0);
            int[] fromLeft = {-9};
            c.sendrecv(new int[] {c.rank()}, right.dest(), 1, fromLeft, right.source(), 1);
            Cartesian row = g.sub(new boolean[] {false, true});
            int[] rowSum = new int[1];
            row.comm().allreduce(new int[] {c.rank()}, rowSum, Op.SUM);
            return c.rank() + " " + Arrays.toString(g.coords()) + " above " + fromAbove[0] + " left " + fromLeft[0]
                    + " row " + Arrays.toString(row.dims()) + " sum " + rowSum[0] + " at " + g.rank(new int[] {-1, 1});
        });
        assertThat(got).containsExactly(
                "0 [0, 0] above 4 left -9 row [2] sum 1 at 5",
                "1 [0, 1] above 5 left 0 row [2] sum 1 at 5",
                "2 [1, 0] above 0 left -9 row [2] sum 5 at 5",
                "3 [1, 1] above 1 left 2 row [2] sum 5 at 5",
                "4 [2, 0] above 2 left -9 row [2] sum 9 at 5",
                "5 [2, 1] above 3 left 4 row [2] sum 9 at 5",
                "left out");
    }

    @Test
    void aGridLargerThanItsCommunicatorIsRefused() throws Exception {
        List<String> got = LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            try {
                Cartesian.create(w, new int[] {3}, new boolean[] {false});
                return "accepted";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(got).containsOnly("a grid of [3] needs 3 ranks; MPI_COMM_WORLD has 2");
    }

    /** MPI_Comm_split_type(SHARED): the ranks of each host, by key; ranks 0-2 on host a, 3-4 on b. */
    @Test
    void splitSharedGroupsTheRanksOfAHost() throws Exception {
        List<String> got = LocalJob.run(5, r -> r < 3 ? "a" : "b", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            Comm local = w.splitShared(-w.rank()); // reversed within the host
            int[] sum = new int[1];
            local.allreduce(new int[] {w.rank()}, sum, Op.SUM);
            return local.size() + " " + local.rank() + " " + sum[0];
        });
        assertThat(got).containsExactly("3 2 3", "3 1 3", "3 0 3", "2 1 7", "2 0 7");
    }

    /** A distributed graph and its neighbour collectives: 0→1, 0→2, 1→2, 2→3, 3→0. */
    @Test
    void aDistributedGraphExchangesWithItsNeighbours() throws Exception {
        int[][] dst = {{1, 2}, {2}, {3}, {0}};
        int[][] src = {{3}, {0}, {0, 1}, {2}};
        List<String> got = LocalJob.run(4, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            int me = w.rank();
            DistGraph g = DistGraph.createAdjacent(w, src[me], dst[me]);
            double[] gathered = new double[src[me].length];
            g.neighborAllgather(new double[] {me * 10}, gathered);
            int[] out = Arrays.stream(dst[me]).map(d -> me * 100 + d).toArray();
            int[] in = new int[src[me].length];
            g.neighborAlltoall(out, in, 1);
            return Arrays.toString(gathered) + " " + Arrays.toString(in);
        });
        assertThat(got).containsExactly("[30.0] [300]", "[0.0] [1]", "[0.0, 10.0] [2, 102]", "[20.0] [203]");
    }

    @Test
    void aGraphWhoseEndsDisagreeIsRefusedOnEveryRank() throws Exception {
        int[][] dst = {{1}, {}, {}};
        int[][] src = {{}, {}, {}};
        List<String> got = LocalJob.run(3, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            try {
                DistGraph.createAdjacent(w, src[w.rank()], dst[w.rank()]);
                return "accepted";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(got).containsOnly("the graph's two ends disagree: rank 1 lists rank 0 among its sources a different number "
                + "of times than rank 0 lists it among its destinations");
    }

    /**
     * MPI_Dist_graph_create: rank 0 names every edge of the graph above (0→1, 0→2, 1→2, 2→3,
     * 3→0) and rank 3 names 0→2 once more; each rank learns its own neighbours, in rank order,
     * and the "v" neighbour collectives move blocks of each neighbour's own size. Over shared
     * memory and TCP.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void aGraphAnyRankNamesIsLearntByItsEndsAndCarriesVBlocks(boolean shm) throws Exception {
        List<String> got = LocalJob.run(4, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            int me = w.rank();
            DistGraph g = switch (me) {
                case 0 -> DistGraph.create(w, new int[] {0, 1, 2, 3}, new int[] {2, 1, 1, 1}, new int[] {1, 2, 2, 3, 0});
                case 3 -> DistGraph.create(w, new int[] {0}, new int[] {1}, new int[] {2});
                default -> DistGraph.create(w, new int[0], new int[0], new int[0]);
            };
            int[] src = g.sources();
            int[] dst = g.destinations();
            // allgatherv: rank r sends r + 1 values r; source i's block is placed at 10 * i
            int[] counts = Arrays.stream(src).map(s -> s + 1).toArray();
            int[] displs = java.util.stream.IntStream.range(0, src.length).map(i -> 10 * i).toArray();
            long[] gathered = new long[10 * Math.max(1, src.length)];
            Arrays.fill(gathered, -1);
            long[] mine = new long[me + 1];
            Arrays.fill(mine, me);
            g.neighborAllgatherv(mine, gathered, counts, displs);
            // alltoallv: to destination i, i + 1 values 100 * me + 10 * i + destination
            int[] sendCounts = java.util.stream.IntStream.range(0, dst.length).map(i -> i + 1).toArray();
            int[] sendDispls = new int[dst.length];
            for (int i = 1; i < dst.length; i++) {
                sendDispls[i] = sendDispls[i - 1] + sendCounts[i - 1];
            }
            double[] out = new double[Arrays.stream(sendCounts).sum()];
            for (int i = 0; i < dst.length; i++) {
                Arrays.fill(out, sendDispls[i], sendDispls[i] + sendCounts[i], 100 * me + 10 * i + dst[i]);
            }
            // what source j sends here: the k-th edge from a rank to this one is the k-th place it is listed
            int[] recvCounts = new int[][] {{1}, {1}, {2, 3, 1}, {1}}[me];
            int[] recvDispls = java.util.stream.IntStream.range(0, src.length).map(j -> 4 * j).toArray();
            double[] in = new double[4 * Math.max(1, src.length)];
            g.neighborAlltoallv(out, sendCounts, sendDispls, in, recvCounts, recvDispls);
            return Arrays.toString(src) + Arrays.toString(dst) + " " + Arrays.toString(Arrays.stream(gathered).filter(x -> x >= 0)
                    .toArray()) + " " + Arrays.toString(Arrays.stream(in).filter(x -> x > 0).toArray());
        });
        assertThat(got).containsExactly(
                "[3][1, 2, 2] [3, 3, 3, 3] [300.0]",
                "[0][2] [0] [1.0]",
                "[0, 0, 1][3] [0, 0, 1, 1] [12.0, 12.0, 22.0, 22.0, 22.0, 102.0]",
                "[2][0] [2, 2, 2] [203.0]");
    }

    @Test
    void aGraphWhoseDegreesDoNotAddUpIsRefusedWhereItIsGiven() throws Exception {
        LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            assertThatThrownBy(() -> DistGraph.create(w, new int[] {0}, new int[] {2}, new int[] {1}))
                    .hasMessage("Dist_graph_create: the degrees add up to 2 edges, and 1 destinations are given");
            assertThatThrownBy(() -> DistGraph.create(w, new int[] {0, 1}, new int[] {1}, new int[] {1}))
                    .hasMessage("Dist_graph_create: 2 sources and 1 degrees: one degree per source");
            assertThatThrownBy(() -> DistGraph.create(w, new int[] {0}, new int[] {1}, new int[] {2}))
                    .hasMessageContaining("destination rank 2 is out of range");
            DistGraph g = DistGraph.createAdjacent(w, new int[] {1 - w.rank()}, new int[] {1 - w.rank()});
            assertThatThrownBy(() -> g.neighborAllgatherv(new int[1], new int[1], new int[] {2}, new int[] {0}))
                    .hasMessageContaining("neighborAllgatherv: rank 0's block (2 at 0) ends past the buffer's 1");
            return null;
        });
    }

    /**
     * MPI_Graph_create: a ring of 3 nodes with a chord 0-2 doubled (index and edges as MPI's) on
     * 4 ranks; rank 3 is left out, and each node's neighbours exchange through the collectives.
     */
    @Test
    void aGraphGivenWholeOnEveryRankMakesItsNodesNeighbours() throws Exception {
        List<String> got = LocalJob.run(4, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            DistGraph g = DistGraph.graph(w, new int[] {3, 5, 8}, new int[] {1, 2, 2, 0, 2, 0, 0, 1});
            if (g == null) {
                return "left out";
            }
            int[] got4 = new int[g.sources().length];
            g.neighborAllgather(new int[] {w.rank() * 10}, got4);
            return Arrays.toString(g.sources()) + " " + Arrays.toString(got4);
        });
        assertThat(got).containsExactly("[1, 2, 2] [10, 20, 20]", "[0, 2] [0, 20]", "[0, 0, 1] [0, 0, 10]", "left out");
        List<String> refused = LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            try {
                DistGraph.graph(w, new int[] {1, 1}, new int[] {1});
                return "accepted";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(refused).containsOnly("Graph_create: node 0 lists node 1 1 times and node 1 lists node 0 0 times: the graph must be "
                + "symmetric for its neighbour collectives");
        List<String> differing = LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            try {
                DistGraph.graph(w, w.rank() == 0 ? new int[] {0, 0} : new int[] {1, 2}, w.rank() == 0 ? new int[0] : new int[] {1, 0});
                return "accepted";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(differing).containsOnly("Graph_create: the ranks gave different graphs; every rank gives the whole graph");
    }

    /** Ranks dealt by node over two hosts of this machine's tree: 0 and 2 on the first, bound to its CPUs 0 and 1. */
    private static <T> List<T> byNode(LocalJob.Body<T> body, boolean bound) throws Exception {
        return LocalJob.run(4, r -> "h" + r % 2, r -> bound
                ? Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1", "BANYAN_CPUS", Integer.toString(r / 2))
                : Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), body);
    }

    /**
     * A chain of 4 with reorder, on ranks dealt by node over two hosts: TreeMatch gives each host
     * two neighbouring ranks of the chain (without reorder every link crosses hosts), and the
     * halo exchange along the chain still meets the right neighbours.
     */
    @Test
    void reorderPutsAGridsNeighboursOnOneHost() throws Exception {
        List<String> got = byNode(w -> {
            Cartesian g = Cartesian.create(w, new int[] {4}, new boolean[] {false}, true);
            Comm c = g.comm();
            Cartesian.Shift right = g.shift(0, 1);
            int[] fromLeft = {-1};
            c.sendrecv(new int[] {c.rank()}, right.dest(), 0, fromLeft, right.source(), 0);
            return c.rank() + " on h" + w.rank() % 2 + " from " + fromLeft[0] + " | " + g.reorderNote();
        }, true);
        java.util.Map<Integer, String> hostOfNew = new java.util.HashMap<>();
        for (String line : got) {
            String[] f = line.split(" ");
            int rank = Integer.parseInt(f[0]);
            hostOfNew.put(rank, f[2]);
            assertThat(f[4]).isEqualTo(Integer.toString(rank - 1));
            assertThat(line).contains("| reordered by TreeMatch: the pattern's cost on the machine");
        }
        assertThat(hostOfNew.get(0)).isEqualTo(hostOfNew.get(1));
        assertThat(hostOfNew.get(2)).isEqualTo(hostOfNew.get(3));
    }

    @Test
    void reorderOfUnboundRanksKeepsTheOrderAndSaysWhy() throws Exception {
        List<String> got = byNode(w -> {
            Cartesian g = Cartesian.create(w, new int[] {4}, new boolean[] {false}, true);
            return g.comm().rank() + " " + g.reorderNote();
        }, false);
        assertThat(got).containsExactly("0 order kept: rank 0 is not bound to CPUs (banyan run --bind-to core binds ranks)",
                "1 order kept: rank 0 is not bound to CPUs (banyan run --bind-to core binds ranks)",
                "2 order kept: rank 0 is not bound to CPUs (banyan run --bind-to core binds ranks)",
                "3 order kept: rank 0 is not bound to CPUs (banyan run --bind-to core binds ranks)");
    }

    /**
     * A ring given adjacently, with reorder, on the same placement: each process plays the vertex
     * of its new rank (the lists that rank gave), so a neighbour allgather of new ranks gets each
     * vertex's predecessor on the ring.
     */
    @Test
    void reorderOfADistributedGraphHandsEachProcessItsVertexsLists() throws Exception {
        List<String> got = byNode(w -> {
            int me = w.rank();
            // the ring 0 -> 1 -> 2 -> 3 -> 0: dealt by node, every edge crosses hosts
            int[] next = {1, 2, 3, 0};
            int[] prev = {3, 0, 1, 2};
            DistGraph g = DistGraph.createAdjacent(w, new int[] {prev[me]}, new int[] {next[me]}, true);
            int v = g.comm().rank();
            int[] got1 = new int[1];
            g.neighborAllgather(new int[] {v}, got1);
            return v + " on h" + me % 2 + " src " + g.sources()[0] + " dst " + g.destinations()[0] + " got " + got1[0] + " | "
                    + g.reorderNote().startsWith("reordered by TreeMatch");
        }, true);
        int[] prev = {3, 0, 1, 2};
        java.util.Map<Integer, String> hostOfNew = new java.util.HashMap<>();
        for (String line : got) {
            String[] f = line.split(" ");
            int v = Integer.parseInt(f[0]);
            hostOfNew.put(v, f[2]);
            assertThat(Integer.parseInt(f[4])).as(line).isEqualTo(prev[v]);
            assertThat(Integer.parseInt(f[8])).as(line).isEqualTo(prev[v]);
            assertThat(line).endsWith("| true");
        }
        int crossing = 0;
        int[] next = {1, 2, 3, 0};
        for (int v = 0; v < 4; v++) {
            crossing += hostOfNew.get(v).equals(hostOfNew.get(next[v])) ? 0 : 1;
        }
        assertThat(crossing).as("ring edges between hosts after reorder (4 before)").isEqualTo(2);
    }

    /**
     * The same ring made by MPI_Graph_create and by MPI_Dist_graph_create (rank 0 naming every
     * edge), with reorder: each node's neighbours are its new rank's, and only two of the ring's
     * four links cross hosts.
     */
    @Test
    void reorderOfGraphsMadeWholeOrByAnyRank() throws Exception {
        for (boolean whole : new boolean[] {true, false}) {
            List<String> got = byNode(w -> {
                DistGraph g = whole
                        ? DistGraph.graph(w, new int[] {2, 4, 6, 8}, new int[] {1, 3, 0, 2, 1, 3, 2, 0}, true)
                        : DistGraph.create(w, w.rank() == 0 ? new int[] {0, 1, 2, 3} : new int[0],
                                w.rank() == 0 ? new int[] {1, 1, 1, 1} : new int[0],
                                w.rank() == 0 ? new int[] {1, 2, 3, 0} : new int[0], true);
                return g.comm().rank() + " " + w.rank() % 2 + " " + java.util.Arrays.toString(g.sources()) + " "
                        + java.util.Arrays.toString(g.destinations()) + " " + g.reorderNote().startsWith("reordered");
            }, true);
            String[] hostOf = new String[4];
            for (String line : got) {
                String[] f = line.split(" ", 3);
                int v = Integer.parseInt(f[0]);
                hostOf[v] = f[1];
                String expected = whole ? new String[] {"[1, 3]", "[0, 2]", "[1, 3]", "[2, 0]"}[v] : "[" + (v + 3) % 4 + "]";
                assertThat(f[2]).as(line).startsWith(expected).endsWith("true");
            }
            int crossing = 0;
            for (int v = 0; v < 4; v++) {
                crossing += hostOf[v].equals(hostOf[(v + 1) % 4]) ? 0 : 1;
            }
            assertThat(crossing).as((whole ? "graph" : "dist graph") + ": links between hosts after reorder").isEqualTo(2);
        }
    }

    /**
     * Weights steer reorder: on the ring 0-1-2-3-0 the links 1-2 and 3-0 weigh 10, the others 1;
     * of the two ways to put two neighbours per host, only {1, 2} and {3, 0} keeps the heavy links
     * on a host (unweighted, TreeMatch picks {0, 1} and {2, 3}: checked). Each process gets its
     * vertex's weights with its lists.
     */
    @Test
    void reorderWeighsTheEdgesAsGiven() throws Exception {
        int[][] peers = {{3, 1}, {0, 2}, {1, 3}, {2, 0}};
        int[][] weights = {{10, 1}, {1, 10}, {10, 1}, {1, 10}};
        List<String> got = byNode(w -> {
            int me = w.rank();
            DistGraph g = DistGraph.createAdjacent(w, peers[me], weights[me], peers[me], weights[me], true);
            return g.comm().rank() + " " + me % 2 + " " + java.util.Arrays.toString(g.sources()) + " "
                    + java.util.Arrays.toString(g.sourceWeights()) + " " + java.util.Arrays.toString(g.destinationWeights());
        }, true);
        String[] hostOf = new String[4];
        for (String line : got) {
            String[] f = line.split(" ", 3);
            int v = Integer.parseInt(f[0]);
            hostOf[v] = f[1];
            String lists = java.util.Arrays.toString(peers[v]) + " " + java.util.Arrays.toString(weights[v]) + " "
                    + java.util.Arrays.toString(weights[v]);
            assertThat(f[2]).as(line).isEqualTo(lists);
        }
        assertThat(hostOf[1]).isEqualTo(hostOf[2]).isNotEqualTo(hostOf[3]);
        assertThat(hostOf[3]).isEqualTo(hostOf[0]);
        LocalJob.run(1, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            assertThatThrownBy(() -> DistGraph.createAdjacent(w, new int[] {0}, new int[] {1, 2}, new int[0], null, false))
                    .hasMessage("2 source weights for 1 sources");
            assertThatThrownBy(() -> DistGraph.createAdjacent(w, new int[0], null, new int[] {0}, new int[] {-1}, false))
                    .hasMessage("a destination weight of -1: weights are 0 or more");
            DistGraph plain = DistGraph.createAdjacent(w, new int[] {0}, new int[] {0});
            assertThat(plain.sourceWeights()).containsExactly(1);
            return null;
        });
    }

    /** MPI_Dist_graph_create with weights: each edge's weight reaches both its ends, a repeated edge ordered by weight. */
    @Test
    void aGraphAnyRankNamesCarriesItsWeightsToBothEnds() throws Exception {
        List<String> got = LocalJob.run(3, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            DistGraph g = switch (w.rank()) {
                case 0 -> DistGraph.create(w, new int[] {0, 1, 2}, new int[] {1, 1, 1}, new int[] {1, 2, 0}, new int[] {5, 7, 9}, false);
                case 2 -> DistGraph.create(w, new int[] {0}, new int[] {1}, new int[] {1}, new int[] {3}, false);
                default -> DistGraph.create(w, new int[0], new int[0], new int[0], new int[0], false);
            };
            return Arrays.toString(g.sources()) + Arrays.toString(g.sourceWeights()) + " " + Arrays.toString(g.destinations())
                    + Arrays.toString(g.destinationWeights());
        });
        assertThat(got).containsExactly("[2][9] [1, 1][3, 5]", "[0, 0][3, 5] [2][7]", "[1][7] [0][9]");
        LocalJob.run(1, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            assertThatThrownBy(() -> DistGraph.create(w, new int[] {0}, new int[] {1}, new int[] {0}, new int[] {1, 2}, false))
                    .hasMessage("2 edge weights for 1 edges");
            return null;
        });
    }
}
