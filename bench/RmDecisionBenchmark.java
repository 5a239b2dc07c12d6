import org.banyan.rm.JobRequest;
import org.banyan.rm.MalleableScheduler;

/**
 * The resource manager's decision time when nothing changes (the seed measured 9.4 ms on
 * average): a running job checks in while the queue holds jobs that no shrink could start, so
 * every check walks the whole policy and answers NONE.
 * Run: java -cp cli/target/banyan.jar bench/RmDecisionBenchmark.java
 */
public class RmDecisionBenchmark {
    public static void main(String[] args) {
        for (int queued : new int[] {10, 1000, 10000}) {
            MalleableScheduler s = new MalleableScheduler(64, true);
            for (int j = 1; j <= 8; j++) {
                s.submit(new JobRequest(j, 8, 8, 0, 2, 1000), 0); // rigid: nothing to give back
            }
            s.ended(8, 1);
            s.submit(new JobRequest(100, 4, 8, 0, 2, 1000), 1); // the malleable one that checks
            s.check(100, new JobRequest(100, 4, 4, 0, 2, 1000), 1); // asks to go down to 4 ...
            s.shrunk(100, 1);
            s.submit(new JobRequest(99, 4, 4, 0, 1, 1000), 1); // ... and another job takes those 4
            for (int q = 0; q < queued; q++) {
                s.submit(new JobRequest(1000 + q, 64, 64, 0, 1, 1000), 2); // needs the whole machine
            }
            long n = 2_000_000;
            JobRequest limits = new JobRequest(100, 4, 8, 0, 2, 1000); // at 4 of 4..8: every step of the policy runs
            for (int i = 0; i < n; i++) { // warm-up
                s.check(100, limits, 3);
            }
            long t0 = System.nanoTime();
            MalleableScheduler.Decision d = null;
            for (int i = 0; i < n; i++) {
                d = s.check(100, limits, 3);
            }
            double ns = (System.nanoTime() - t0) / (double) n;
            System.out.printf("queue of %5d: %.0f ns per decision (%s)%n", queued, ns, d.kind());
        }
    }
}
