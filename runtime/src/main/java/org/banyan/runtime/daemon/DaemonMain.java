package org.banyan.runtime.daemon;

import java.net.InetAddress;
import org.banyan.runtime.net.FrameChannel;

/**
 * Entry point of a daemon in its own JVM: {@code --parent HOST:PORT --id N [--host NAME]}.
 * Internal to Banyan; users never type it.
 */
public final class DaemonMain {
    private DaemonMain() {}

    public static void main(String[] args) throws Exception {
        String parent = null;
        int id = -1;
        String host = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--parent" -> parent = args[i + 1];
                case "--id" -> id = Integer.parseInt(args[i + 1]);
                case "--host" -> host = args[i + 1];
                default -> {
                    System.err.println("banyand: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (parent == null || id < 0) {
            System.err.println("banyand: usage: --parent HOST:PORT --id N [--host NAME]");
            System.exit(2);
        }
        if (host == null) {
            host = InetAddress.getLocalHost().getHostName();
        }
        FrameChannel channel;
        try {
            channel = FrameChannel.connect(parent, 10_000);
        } catch (Exception e) {
            System.err.println("banyand: cannot reach the head at " + parent + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        new DaemonDriver(id, host, channel).run();
        System.exit(0);
    }
}
