import org.banyan.client.Banyan;
import org.banyan.comm.Cartesian;
import org.banyan.comm.Comm;

/**
 * A chain of the job's ranks made with reorder: TreeMatch deals the chain's ranks out to the
 * processes where they are bound, so that neighbours sit close; each rank prints its world rank,
 * its host, its rank on the chain and what reorder did, then passes a token along the chain.
 *
 * <p>Run it with bound ranks: {@code banyan run --host a,b -n 4 --map-by node --bind-to core java ... Reorder}
 */
public final class Reorder {
    public static void main(String[] args) {
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
            Cartesian chain = Cartesian.create(world, new int[] {world.size()}, new boolean[] {false}, true);
            Comm c = chain.comm();
            Cartesian.Shift right = chain.shift(0, 1);
            int[] fromLeft = {-1};
            c.sendrecv(new int[] {c.rank()}, right.dest(), 0, fromLeft, right.source(), 0);
            System.out.println("world " + world.rank() + " on " + Comm.processorName() + " -> chain " + c.rank() + " (left "
                    + fromLeft[0] + ") | " + chain.reorderNote());
        }
    }
}
