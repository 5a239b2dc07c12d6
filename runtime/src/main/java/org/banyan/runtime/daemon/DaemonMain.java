package org.banyan.runtime.daemon;

import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.net.FrameChannel;

/**
 * Entry point of a daemon in its own JVM:
 * {@code --parent HOST:PORT --id N --host NAME [--agent inproc|local|ssh:CMD]}.
 * Internal to Banyan; users never type it. Its parent starts it through the launch agent.
 */
public final class DaemonMain {
    private DaemonMain() {}

    public static void main(String[] args) throws Exception {
        String parent = null;
        int id = -1;
        String host = null;
        String agent = "local";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--parent" -> parent = args[i + 1];
                case "--id" -> id = Integer.parseInt(args[i + 1]);
                case "--host" -> host = args[i + 1];
                case "--agent" -> agent = args[i + 1];
                default -> {
                    System.err.println("banyand: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (parent == null || id < 0 || host == null) {
            System.err.println("banyand: usage: --parent HOST:PORT --id N --host NAME [--agent SPEC]");
            System.exit(2);
        }
        FrameChannel channel;
        try {
            channel = FrameChannel.connect(parent, 10_000);
        } catch (Exception e) {
            System.err.println("banyand on " + host + ": cannot reach its parent at " + parent + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        long spawned = Long.getLong("banyan.spawned", System.currentTimeMillis());
        new DaemonDriver(id, host, channel, LaunchAgent.parse(agent), spawned).run();
        System.exit(0);
    }
}
