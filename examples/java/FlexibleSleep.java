import org.banyan.comm.BlockRedistribution;
import org.banyan.comm.Comm;
import org.banyan.comm.Dmr;
import org.banyan.comm.Op;

/**
 * The seed's synthetic malleable application ("flexible sleep"), for banyan dvm submit: STEPS
 * steps of a perfectly divisible amount of work (WORK seconds on one host, so a step takes
 * WORK / hosts; with FLEXIBLE_SLEEP_SERIAL=S, a serial part S of it as Amdahl's law has it, so a
 * step takes WORK * (S + (1 - S) / hosts)), with a block-distributed array of LENGTH doubles that follows every resize. At
 * each step's start it checks in with the resource manager (DMR) and acts on the answer, then
 * verifies that no element was lost or moved to the wrong place.
 *
 * <pre>
 * examples/submit-java FlexibleSleep --nodes 1:4 -- STEPS WORK LENGTH [MIN MAX FACTOR PREFERRED]
 * </pre>
 *
 * Without MIN MAX FACTOR PREFERRED (hosts; PREFERRED 0 for none) it checks with the limits it was
 * submitted with. FLEXIBLE_SLEEP_ASYNC=1 uses DMR's asynchronous check: the answer acted on at a
 * step's start was decided during the step before. For tests, FLEXIBLE_SLEEP_FAIL_ON=shrink|expand makes the last rank exit with
 * status 7 when that decision comes, and FLEXIBLE_SLEEP_STALL=1 makes the ranks an expansion
 * starts hang before they join. FLEXIBLE_SLEEP_PREPARE=SIZES (world sizes in ranks, comma-separated,
 * maybe none) calls {@link Dmr#prepareBlocks}: the blocks for those sizes are allocated while the
 * steps run, and the blocks a resize replaces are reused by later resizes.
 */
public final class FlexibleSleep {
    public static void main(String[] args) throws Exception {
        int steps = Integer.parseInt(args[0]);
        double work = Double.parseDouble(args[1]);
        long length = Long.parseLong(args[2]);
        boolean ownLimits = args.length > 6;
        boolean async = "1".equals(System.getenv("FLEXIBLE_SLEEP_ASYNC"));
        double serial = Double.parseDouble(System.getenv().getOrDefault("FLEXIBLE_SLEEP_SERIAL", "0"));
        if (!(serial >= 0 && serial <= 1)) {
            throw new IllegalArgumentException("FLEXIBLE_SLEEP_SERIAL must be between 0 and 1, got " + serial);
        }
        if (System.getenv("FLEXIBLE_SLEEP_STALL") != null && !"0".equals(System.getenv().getOrDefault("BANYAN_DMR_OFFSET", "0"))) {
            Thread.sleep(1_000_000); // for tests: ranks an expansion starts never join
        }
        try (Dmr dmr = Dmr.init()) {
            String prepare = System.getenv("FLEXIBLE_SLEEP_PREPARE");
            if (prepare != null) { // blocks for these world sizes allocated while the steps run; replaced ones reused
                dmr.prepareBlocks(length, java.util.Arrays.stream(prepare.split(",")).map(String::strip)
                        .filter(x -> !x.isEmpty()).mapToInt(Integer::parseInt).toArray());
            }
            double[] mine;
            long step;
            if (dmr.joined()) {
                Dmr.Arrival a = dmr.arrive(length);
                mine = a.block();
                step = a.progress();
            } else {
                Comm w = dmr.world();
                long start = BlockRedistribution.blockStart(length, w.size(), w.rank());
                mine = new double[(int) BlockRedistribution.blockLength(length, w.size(), w.rank())];
                for (int i = 0; i < mine.length; i++) {
                    mine[i] = start + i; // element i holds i: any misplacement shows
                }
                step = 0;
            }
            // a rank started by an expansion arrives where the others resized: after the check of its first step
            boolean arrived = dmr.joined();
            for (; step < steps; step++) {
                Dmr.Decision d = new Dmr.Decision(Dmr.Action.NONE, dmr.world().size(), 0);
                int before = dmr.world().size();
                double resizeMillis = 0;
                if (!arrived) {
                    if (ownLimits) {
                        int min = Integer.parseInt(args[3]);
                        int max = Integer.parseInt(args[4]);
                        int factor = Integer.parseInt(args[5]);
                        int preferred = Integer.parseInt(args[6]);
                        d = async ? dmr.checkAsync(min, max, factor, preferred) : dmr.check(min, max, factor, preferred);
                    } else {
                        d = async ? dmr.checkAsync() : dmr.check();
                    }
                    if (d.resizes() && d.action().name().equalsIgnoreCase(System.getenv("FLEXIBLE_SLEEP_FAIL_ON"))
                            && dmr.world().rank() == dmr.world().size() - 1) {
                        System.exit(7); // for tests: the last rank dies as the resize begins
                    }
                    long t0 = System.nanoTime();
                    mine = dmr.resize(d, mine, length, step);
                    resizeMillis = (System.nanoTime() - t0) / 1e6;
                    if (dmr.left()) {
                        return;
                    }
                }
                arrived = false;
                Comm w = dmr.world();
                verify(w, mine, length, step);
                if (w.rank() == 0) {
                    System.out.printf("step %d: %d rank(s)%s%n", step, w.size(), dmr.abandoned()
                            ? String.format(" (expansion to %d abandoned after %.1f ms)", d.ranks(), resizeMillis)
                            : d.resizes() ? String.format(" (%s from %d, %.1f ms)", d.action().name().toLowerCase(), before,
                            resizeMillis) : "");
                }
                Thread.sleep((long) (work * 1000 * (serial + (1 - serial) / w.size())));
            }
        }
    }

    /** Every element i of the array is i, in the block the world's current layout gives it. */
    static void verify(Comm w, double[] mine, long length, long step) {
        long start = BlockRedistribution.blockStart(length, w.size(), w.rank());
        long bad = mine.length == BlockRedistribution.blockLength(length, w.size(), w.rank()) ? 0 : 1;
        for (int i = 0; i < mine.length && bad == 0; i++) {
            if (mine[i] != start + i) {
                bad = 1;
            }
        }
        long[] total = new long[1];
        w.allreduce(new long[] {bad}, total, Op.SUM);
        if (total[0] != 0) {
            throw new IllegalStateException("step " + step + ": " + total[0] + " rank(s) hold the wrong elements");
        }
    }
}
