import java.net.InetAddress;
import org.banyan.client.Banyan;
import org.banyan.client.Peer;

/**
 * A Java rank using Banyan's client library: each rank puts where it runs, fences, then reads
 * its ring neighbour's value and the process table's record of that neighbour.
 *
 *   javac -cp client/target/banyan-client.jar -d /tmp/kx examples/java/KeyExchange.java
 *   banyan run -n 4 java -cp client/target/banyan-client.jar:/tmp/kx KeyExchange
 */
public final class KeyExchange {
    public static void main(String[] args) throws Exception {
        try (Banyan job = Banyan.init()) {
            job.put("where", InetAddress.getLocalHost().getHostName() + "/pid " + ProcessHandle.current().pid());
            job.fence();
            int next = (job.rank() + 1) % job.size();
            String there = job.get(next, "where");
            Peer peer = job.peer(next);
            System.out.printf("rank %d of %d (local %d on node %d): rank %d is %s, host %s local rank %d%n",
                    job.rank(), job.size(), job.localRank(), job.nodeRank(), next, there, peer.host(), peer.localRank());
        }
    }
}
