package org.banyan.runtime.dvm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.tree.TopologySpec;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.os.FastExit;

/**
 * A DVM's head for the pilot API, which starts it as a child process: internal, users type
 * {@code banyan dvm start}. {@code --uri-file F --host NAME:SLOTS,... [--agent SPEC]
 * [--gpus-per-host N] [--until-signalled]}; the head ends when its stdin closes, so that a pilot never outlives the
 * program that started it, even when that program is killed. A Slurm pilot's batch job has no
 * such program ({@code --until-signalled}): it ends on SIGTERM (scancel, the time limit) or a
 * client's stop.
 */
public final class DvmMain {
    private DvmMain() {}

    public static void main(String[] args) throws Exception {
        org.banyan.runtime.os.TempRoot.adopt();
        Path uri = null;
        List<Node> nodes = new ArrayList<>();
        String agent = "inproc";
        int gpusPerHost = DvmHead.FOUND_GPUS;
        boolean untilSignalled = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--until-signalled")) {
                untilSignalled = true;
                continue;
            }
            if (++i == args.length) {
                System.err.println("banyan dvm: option " + option + " needs a value");
                System.exit(2);
            }
            switch (option) {
                case "--uri-file" -> uri = Path.of(args[i]);
                case "--host" -> {
                    for (String h : args[i].split(",")) {
                        int colon = h.lastIndexOf(':');
                        nodes.add(colon < 0 ? new Node(h, 1) : new Node(h.substring(0, colon),
                                Integer.parseInt(h.substring(colon + 1))));
                    }
                }
                case "--agent" -> agent = args[i];
                case "--gpus-per-host" -> gpusPerHost = Integer.parseInt(args[i]);
                default -> {
                    System.err.println("banyan dvm: unknown option " + option);
                    System.exit(2);
                }
            }
        }
        if (uri == null || nodes.isEmpty()) {
            System.err.println("banyan dvm: usage: --uri-file F --host NAME:SLOTS,... [--agent SPEC]");
            System.exit(2);
        }
        FastExit.prepare();
        DvmHead head = new DvmHead(nodes, new HeadSettings(0, 2000, 30_000), LaunchAgent.parse(agent),
                new TopologySpec.Radix(32), new TopologySpec.Radix(32), new DvmFiles(uri), System.out, gpusPerHost);
        if (untilSignalled) {
            org.banyan.runtime.os.UserSignals.install(signal -> {
                if (signal != org.banyan.core.daemon.Signals.SIGUSR1 && signal != org.banyan.core.daemon.Signals.SIGUSR2) {
                    head.stop("it was stopped by " + org.banyan.core.daemon.Signals.name(signal));
                }
            });
            FastExit.exit(head.run());
            return;
        }
        Thread.ofPlatform().daemon().name("stdin-watch").start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the pilot's program writes nothing; EOF means it is gone
                }
            } catch (java.io.IOException e) {
                // gone as well
            }
            head.stop("the program that started it ended");
        });
        FastExit.exit(head.run());
    }
}
