import org.banyan.comm.Dmr;

/**
 * DMR decision time when nothing changes, end to end: N checks of a job already at its maximum
 * (the resource manager's answer is NONE), each rank 0 -> daemon -> overlay -> head's queue ->
 * back, then the broadcast to every rank. Run by bench/malleable under banyan dvm submit.
 */
public final class DmrCheck {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        try (Dmr dmr = Dmr.init()) {
            for (int i = 0; i < 200; i++) {
                dmr.check(); // warm-up: the JIT and the connections
            }
            long[] t = new long[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                Dmr.Decision d = dmr.check();
                t[i] = System.nanoTime() - t0;
                if (d.resizes()) {
                    throw new IllegalStateException("a job at its maximum with nothing queued was resized: " + d);
                }
            }
            if (dmr.world().rank() == 0) {
                java.util.Arrays.sort(t);
                double mean = java.util.Arrays.stream(t).average().orElse(0) / 1e6;
                System.out.printf("checks: %d on %d rank(s); mean %.3f ms, median %.3f ms, p99 %.3f ms%n", n,
                        dmr.world().size(), mean, t[n / 2] / 1e6, t[(int) (n * 0.99)] / 1e6);
            }
        }
    }
}
