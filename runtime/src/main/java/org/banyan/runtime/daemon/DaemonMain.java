package org.banyan.runtime.daemon;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.launch.SlurmHostlist;
import org.banyan.runtime.net.FrameChannel;

/**
 * Entry point of a daemon in its own JVM. Internal to Banyan; users never type it.
 *
 * <ul>
 * <li>{@code --parent HOST:PORT --id N --host NAME [--agent SPEC]}: started by its tree parent,
 *     which says where it listens.
 * <li>{@code --static HEAD:PORT --tree SPEC --hostlist LIST --agent slurm-step:PORT}: one of a
 *     Slurm step that starts every daemon at once. It finds its id by its node name in the job's
 *     hosts and its parent through the tree: the head, or the parent's host at the static port,
 *     retried while the parent's JVM is still starting.
 * </ul>
 */
public final class DaemonMain {
    /** How long a daemon of a static step keeps trying its parent, which starts at the same time. */
    private static final long STATIC_PARENT_WAIT_MILLIS = 30_000;

    private DaemonMain() {}

    public static void main(String[] args) throws Exception {
        org.banyan.runtime.os.TempRoot.adopt();
        if (org.banyan.pmix.CCall.supported()) { // over ssh, without the banyan command's variables: before any other thread runs
            org.banyan.pmix.PmixServer.setNeededEnvironment();
        }
        String parent = null;
        int id = -1;
        String host = null;
        String agent = "local";
        String head = null;
        String tree = null;
        String hostlist = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--parent" -> parent = args[i + 1];
                case "--id" -> id = Integer.parseInt(args[i + 1]);
                case "--host" -> host = args[i + 1];
                case "--agent" -> agent = args[i + 1];
                case "--static" -> head = args[i + 1];
                case "--tree" -> tree = args[i + 1];
                case "--hostlist" -> hostlist = args[i + 1];
                default -> {
                    System.err.println("banyand: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        LaunchAgent launchAgent = LaunchAgent.parse(agent);
        boolean retry = false;
        if (head != null && tree != null && hostlist != null && launchAgent instanceof LaunchAgent.SlurmStep step) {
            List<String> hosts = SlurmHostlist.expand(hostlist);
            String me = System.getenv("SLURMD_NODENAME");
            if (me == null) {
                me = InetAddress.getLocalHost().getHostName();
            }
            id = hosts.indexOf(me);
            if (id < 0) {
                System.err.println("banyand: node " + me + " is not one of the job's hosts " + hostlist);
                System.exit(1);
            }
            host = me;
            int parentVertex = TopologySpec.parse(tree).over(hosts.size() + 1).parent(Topology.vertexOfDaemon(id));
            parent = parentVertex == 0 ? head : hosts.get(Topology.daemonOfVertex(parentVertex)) + ":" + step.port();
            retry = true;
        }
        if (parent == null || id < 0 || host == null) {
            System.err.println("banyand: usage: --parent HOST:PORT --id N --host NAME [--agent SPEC]");
            System.exit(2);
        }
        try {
            org.banyan.runtime.net.LinkAuth.installFrom(System.in);
        } catch (IOException e) {
            System.err.println("banyand on " + host + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        FrameChannel channel;
        try {
            channel = connect(parent, retry);
        } catch (Exception e) {
            System.err.println("banyand on " + host + ": cannot reach its parent at " + parent + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        long spawned = Long.getLong("banyan.spawned", System.currentTimeMillis());
        DaemonDriver driver = new DaemonDriver(id, host, channel, launchAgent, spawned);
        org.banyan.runtime.os.UserSignals.installDaemon(driver::signaled);
        driver.run();
        System.exit(0);
    }

    private static FrameChannel connect(String parent, boolean retry) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + STATIC_PARENT_WAIT_MILLIS;
        while (true) {
            try {
                return FrameChannel.connect(parent, 10_000);
            } catch (java.net.ConnectException e) {
                if (!retry || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
