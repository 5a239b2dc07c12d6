import java.util.List;
import org.banyan.client.Banyan;
import org.banyan.comm.Comm;
import org.banyan.comm.Intercomm;
import org.banyan.comm.Op;

/**
 * MPI_Comm_spawn: the ranks started by banyan run (the managers) spawn WORKERS more processes of
 * this same program, which find their managers with {@code Comm.parent()}. The managers' rank 0
 * sends N to every worker (an intercommunicator bcast); worker w adds the squares of w+1,
 * w+1+WORKERS, ... up to N, and the workers' sums are reduced back to the managers' rank 0,
 * which checks the result against N(N+1)(2N+1)/6. Both sides then disconnect.
 *
 * <p>Usage: Spawn [WORKERS [N]]   (defaults 3, 1000)
 */
public final class Spawn {
    public static void main(String[] args) {
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
            Intercomm parent = world.parent();
            if (parent == null) {
                manage(world, args.length > 0 ? Integer.parseInt(args[0]) : 3, args.length > 1 ? Long.parseLong(args[1]) : 1000);
            } else {
                work(world, parent);
            }
        }
    }

    private static void manage(Comm world, int workers, long n) {
        String java = ProcessHandle.current().info().command().orElse("java");
        try (Intercomm children = world.spawn(java, List.of("-cp", System.getProperty("java.class.path"), "Spawn"), workers,
                0)) {
            long[] limit = {n};
            children.bcast(limit, world.rank() == 0 ? Intercomm.ROOT : Comm.PROC_NULL);
            long[] sum = new long[1];
            children.reduce(new long[1], sum, Op.SUM, world.rank() == 0 ? Intercomm.ROOT : Comm.PROC_NULL);
            if (world.rank() == 0) {
                long expected = n * (n + 1) * (2 * n + 1) / 6;
                System.out.printf("sum of squares of 1..%d by %d spawned workers: %d (%s)%n", n, children.remoteSize(), sum[0],
                        sum[0] == expected ? "correct" : "WRONG, expected " + expected);
            }
        }
    }

    private static void work(Comm world, Intercomm parent) {
        try (parent) {
            long[] limit = new long[1];
            parent.bcast(limit, 0);
            long sum = 0;
            for (long i = world.rank() + 1; i <= limit[0]; i += world.size()) {
                sum += i * i;
            }
            parent.reduce(new long[] {sum}, new long[1], Op.SUM, 0);
        }
    }
}
