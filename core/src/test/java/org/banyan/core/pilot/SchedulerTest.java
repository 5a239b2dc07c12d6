package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SchedulerTest {
    static List<NodeResources> nodes(int n, int cores, int gpus) {
        List<NodeResources> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new NodeResources("n" + i, cores, gpus));
        }
        return out;
    }

    @Test
    void oneNodeTasksGoToTheFullestNodeThatFitsKeepingWholeNodesForWideTasks() {
        GeneralScheduler s = new GeneralScheduler(nodes(2, 8, 0));
        Placement a = s.place(SlotRequest.cores(6));
        Placement b = s.place(SlotRequest.cores(2));
        assertThat(b.shares().getFirst().node()).as("best fit: the node with 2 left").isEqualTo(a.shares().getFirst().node());
        assertThat(s.place(SlotRequest.cores(8))).as("the other node is still whole").isNotNull();
        assertThat(s.freeCores()).isZero();
        assertThat(s.place(SlotRequest.cores(1))).isNull();
        s.release(b);
        assertThat(s.place(SlotRequest.cores(2))).isNotNull();
    }

    @Test
    void mpiTasksSpreadTheirRanksOverNodesAndNeverSplitARank() {
        GeneralScheduler s = new GeneralScheduler(nodes(3, 4, 0));
        s.place(SlotRequest.cores(3));
        Placement p = s.place(new SlotRequest(4, 2, 0, null, false));
        assertThat(p.shares()).extracting(Placement.Share::ranks).containsExactlyInAnyOrder(2, 2);
        assertThat(p.cores()).isEqualTo(8);
        assertThat(s.place(new SlotRequest(1, 2, 0, null, false))).as("1 core left on one node, 2 needed").isNull();
    }

    @Test
    void gpusExclusiveAndColocationAreHonoured() {
        GeneralScheduler s = new GeneralScheduler(List.of(new NodeResources("cpu", 8, 0), new NodeResources("gpu", 8, 2)));
        Placement g = s.place(new SlotRequest(1, 1, 2, null, false));
        assertThat(g.shares().getFirst().node()).isEqualTo(1);
        assertThat(s.place(new SlotRequest(1, 1, 1, null, false))).as("no GPU left").isNull();
        Placement ex = s.place(new SlotRequest(1, 1, 0, null, true));
        assertThat(ex.shares().getFirst().node()).isZero();
        assertThat(ex.shares().getFirst().cores()).as("an exclusive task holds the whole node").isEqualTo(8);
        Placement c1 = s.place(new SlotRequest(1, 2, 0, "pair", false));
        Placement c2 = s.place(new SlotRequest(1, 2, 0, "pair", false));
        assertThat(c1.shares().getFirst().node()).isEqualTo(c2.shares().getFirst().node()).isEqualTo(1);
        s.release(ex);
        assertThat(s.place(SlotRequest.cores(8))).isNotNull();
    }

    /** A DVM counts each host's GPUs once its daemon is up: the scheduler takes them then. */
    @Test
    void gpusFoundLaterCountAsIfTheNodeHadThemFromTheStart() {
        GeneralScheduler s = new GeneralScheduler(nodes(2, 4, 0));
        assertThat(s.neverFits(new SlotRequest(1, 1, 1, null, false))).isNotNull();
        assertThat(s.gpusFound(1, 2)).isTrue();
        assertThat(s.neverFits(new SlotRequest(1, 1, 3, null, false))).contains("the most any node has is 2");
        assertThat(s.neverFits(new SlotRequest(3, 1, 1, null, false))).isEqualTo("3 GPUs requested but the pilot has 2");
        Placement p = s.place(new SlotRequest(1, 1, 2, null, false));
        assertThat(p.shares()).singleElement().matches(x -> x.node() == 1 && x.gpuIds() == 0b11);
        assertThat(s.gpusFound(1, 4)).as("not while its GPUs are taken").isFalse();
        assertThat(s.gpusOn(1)).isEqualTo(2);
        s.release(p);
        assertThat(s.gpusFound(1, 1)).isTrue();
        assertThat(s.neverFits(new SlotRequest(1, 1, 2, null, false))).as("the most shrinks with it")
                .contains("the most any node has is 1");
        s.nodeLost(0);
        assertThat(s.gpusFound(0, 3)).as("a lost node comes back with what it has then").isTrue();
        s.nodeRestored(0);
        assertThat(s.freeGpusOn(0)).isEqualTo(3);
    }

    @Test
    void requestsThatCanNeverRunAreNamed() {
        GeneralScheduler s = new GeneralScheduler(nodes(2, 4, 0));
        assertThat(s.neverFits(SlotRequest.cores(5))).contains("does not fit any node");
        assertThat(s.neverFits(new SlotRequest(3, 4, 0, null, false))).contains("12 cores requested but the pilot has 8");
        assertThat(s.neverFits(new SlotRequest(2, 4, 0, null, false))).isNull();
        // GPUs the pilot does not have: such a task waited in the agent for ever
        assertThat(s.neverFits(new SlotRequest(1, 1, 1, null, false))).isEqualTo("a rank of 1 GPU(s) does not fit any node "
                + "(the pilot has no GPU: none was found on its hosts or declared with dvm start --gpus-per-host or PilotDescription.gpus)");
        GeneralScheduler withGpus = new GeneralScheduler(nodes(2, 4, 2));
        assertThat(withGpus.neverFits(new SlotRequest(1, 1, 3, null, false)))
                .isEqualTo("a rank of 3 GPU(s) does not fit any node (the most any node has is 2)");
        assertThat(withGpus.neverFits(new SlotRequest(5, 1, 1, null, false))).isEqualTo("5 GPUs requested but the pilot has 4");
        assertThat(withGpus.neverFits(new SlotRequest(4, 1, 1, null, false))).isNull();
    }

    @Test
    void theConstantTimeSchedulerCutsSlotsOfTheFirstTasksSize() {
        ConstantTimeScheduler s = new ConstantTimeScheduler(nodes(2, 4, 0));
        List<Placement> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(s.place(SlotRequest.cores(2)));
        }
        assertThat(held).doesNotContainNull();
        assertThat(s.place(SlotRequest.cores(2))).isNull();
        assertThat(s.neverFits(SlotRequest.cores(1))).contains("2-core slots");
        s.release(held.getFirst());
        assertThat(s.place(SlotRequest.cores(2)).shares().getFirst().node()).isEqualTo(held.getFirst().shares().getFirst().node());
    }

    /** Random place/release over many seeds: resources are never over-committed and always come back. */
    @Test
    void randomWorkloadsNeverOvercommitAndGiveEverythingBack() {
        for (long seed = 0; seed < 200; seed++) {
            Random rnd = new Random(seed);
            List<NodeResources> ns = new ArrayList<>();
            for (int i = 0; i < 1 + rnd.nextInt(12); i++) {
                ns.add(new NodeResources("n" + i, 1 + rnd.nextInt(16), rnd.nextInt(5)));
            }
            GeneralScheduler s = new GeneralScheduler(ns);
            List<Placement> held = new ArrayList<>();
            int[] usedCores = new int[ns.size()];
            int[] usedGpus = new int[ns.size()];
            long[] usedGpuIds = new long[ns.size()];
            for (int op = 0; op < 300; op++) {
                if (!held.isEmpty() && rnd.nextInt(3) == 0) {
                    Placement p = held.remove(rnd.nextInt(held.size()));
                    s.release(p);
                    for (Placement.Share sh : p.shares()) {
                        usedCores[sh.node()] -= sh.cores();
                        usedGpus[sh.node()] -= sh.gpus();
                        usedGpuIds[sh.node()] &= ~sh.gpuIds();
                    }
                    continue;
                }
                SlotRequest r = new SlotRequest(1 + rnd.nextInt(3), 1 + rnd.nextInt(4), rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(2) : 0,
                        rnd.nextInt(10) == 0 ? "t" + rnd.nextInt(2) : null, rnd.nextInt(20) == 0);
                Placement p = s.place(r);
                if (p == null) {
                    continue;
                }
                assertThat(p.shares().stream().mapToInt(Placement.Share::ranks).sum()).isEqualTo(r.ranks());
                for (Placement.Share sh : p.shares()) {
                    usedCores[sh.node()] += sh.cores();
                    usedGpus[sh.node()] += sh.gpus();
                    // each GPU a task holds is its own: its bit is set, on the node, and no other task's
                    assertThat(Long.bitCount(sh.gpuIds())).as("seed " + seed).isEqualTo(sh.gpus());
                    assertThat(sh.gpuIds() & ~((1L << ns.get(sh.node()).gpus()) - 1)).as("seed " + seed).isZero();
                    assertThat(usedGpuIds[sh.node()] & sh.gpuIds()).as("seed " + seed).isZero();
                    usedGpuIds[sh.node()] |= sh.gpuIds();
                    assertThat(usedCores[sh.node()]).as("seed " + seed).isLessThanOrEqualTo(ns.get(sh.node()).cores());
                    assertThat(usedGpus[sh.node()]).as("seed " + seed).isLessThanOrEqualTo(ns.get(sh.node()).gpus());
                    assertThat(sh.cores()).isGreaterThanOrEqualTo(sh.ranks() * r.coresPerRank());
                }
                held.add(p);
            }
            Collections.shuffle(held, rnd);
            held.forEach(s::release);
            assertThat(s.freeCores()).as("seed " + seed).isEqualTo(s.totalCores());
        }
    }

    @Test
    void aRestoredNodeTakesWorkAgainWithAllItsCores() {
        GeneralScheduler s = new GeneralScheduler(nodes(2, 2, 0));
        s.nodeLost(1);
        assertThat(s.place(new SlotRequest(2, 1, 0, null, false)).shares()).allMatch(sh -> sh.node() == 0);
        assertThat(s.place(SlotRequest.cores(1))).isNull();
        s.nodeRestored(1);
        s.nodeRestored(1);
        assertThat(s.freeCores()).isEqualTo(2);
        assertThat(s.freeCoresOn(1)).isEqualTo(2);
        assertThat(s.place(new SlotRequest(2, 1, 0, null, false)).shares()).allMatch(sh -> sh.node() == 1);
        assertThat(s.freeCores()).isZero();
    }

    @Test
    void theConstantTimeSchedulerDoesNotCountALostNodesSlotsAsFree() {
        ConstantTimeScheduler fresh = new ConstantTimeScheduler(nodes(2, 2, 0));
        fresh.nodeLost(0);
        assertThat(fresh.freeCores()).as("before the first task cuts the slots").isEqualTo(2);

        ConstantTimeScheduler s = new ConstantTimeScheduler(nodes(2, 2, 0));
        Placement first = s.place(SlotRequest.cores(1));
        assertThat(first.shares().getFirst().node()).isZero();
        assertThat(s.freeCores()).isEqualTo(3);
        s.nodeLost(1);
        s.nodeLost(1);
        assertThat(s.freeCores()).as("node 1's two free slots are gone").isEqualTo(1);
        assertThat(s.place(SlotRequest.cores(1)).shares().getFirst().node()).isZero();
        assertThat(s.freeCores()).isZero();
        assertThat(s.place(SlotRequest.cores(1))).isNull();
        s.release(first);
        assertThat(s.freeCores()).isEqualTo(1);
    }

    @Test
    void aHeldNodeTakesNoTaskUntilUnheldAndKeepsWhatItsTasksGiveBack() {
        GeneralScheduler s = new GeneralScheduler(nodes(2, 4, 0));
        Placement before = s.place(SlotRequest.cores(4)); // fills node 0 (fullest fit among equals)
        int busy = before.shares().getFirst().node();
        int other = 1 - busy;
        assertThat(s.hold(busy)).isTrue();
        assertThat(s.hold(busy)).as("once").isFalse();
        s.release(before);
        assertThat(s.freeCoresOn(busy)).as("the resource manager's while held").isZero();
        assertThat(s.place(new SlotRequest(2, 4, 0, null, false))).as("only one node of 4 for tasks").isNull();
        assertThat(s.hold(other)).isTrue();
        assertThat(s.freeCores()).isZero();
        s.unhold(busy);
        s.unhold(other);
        assertThat(s.freeCores()).isEqualTo(8);
        assertThat(s.place(new SlotRequest(2, 4, 0, null, false))).isNotNull();
    }
}
