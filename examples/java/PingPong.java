import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.banyan.client.Banyan;
import org.banyan.comm.Comm;

/**
 * Ping-pong between ranks 0 and 1: half round-trip latency and bandwidth from 8 bytes to 4 MiB
 * (off-heap buffers), after 50,000 8-byte round trips that let the JIT compile the path (as OSU's
 * benchmarks skip their first iterations) and a second's sleep for the compiler threads (two ranks
 * spinning on two cores leave them none). Other ranks wait. Prints one line per size: bytes,
 * microseconds, MB/s: the best of three passes, each the mean of REPS round trips (this machine's
 * noise is in whole passes: a descheduled rank).
 *
 * <p>Usage: PingPong [MAX_BYTES [REPS]]   (defaults 4194304, 1000; a tenth of REPS above 4 KiB, a hundredth above 64 KiB)
 */
public final class PingPong {
    public static void main(String[] args) {
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 4 << 20;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Math.max(8, max));
            int me = world.rank();
            // small messages and, when the largest goes that far, ones above the eager limit (their
            // rendezvous is another path, measured cold otherwise: few round trips at large sizes)
            MemorySegment small = buf.asSlice(0, 8);
            MemorySegment large = buf.asSlice(0, Math.min(Math.max(8, max), 512 << 10));
            for (int i = 0; i < 52_000 && me < 2; i++) {
                MemorySegment warm = i < 50_000 ? small : large;
                if (me == 0) {
                    world.send(warm, 1, 0);
                    world.recv(warm, 1, 0);
                } else {
                    world.recv(warm, 0, 0);
                    world.send(warm, 0, 0);
                }
            }
            try {
                Thread.sleep(1000); // off the cores: the JIT's compiler threads finish what the warm-up queued
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (me == 0) {
                System.out.println("# bytes  usec  MB/s");
            }
            for (int size = 8; size <= max; size *= 2) {
                MemorySegment m = buf.asSlice(0, size);
                int n = Math.max(10, size > 65536 ? reps / 100 : size > 4096 ? reps / 10 : reps);
                double best = Double.MAX_VALUE;
                for (int pass = 0; pass < 4; pass++) { // the first warms up; the best of the other three
                    world.barrier();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < n && me < 2; i++) {
                        if (me == 0) {
                            world.send(m, 1, 0);
                            world.recv(m, 1, 0);
                        } else {
                            world.recv(m, 0, 0);
                            world.send(m, 0, 0);
                        }
                    }
                    double usec = (System.nanoTime() - t0) / 1e3 / n / 2;
                    if (pass > 0) {
                        best = Math.min(best, usec);
                    }
                }
                if (me == 0) {
                    System.out.printf("%d %.2f %.1f%n", size, best, size / best);
                }
            }
        }
    }
}
