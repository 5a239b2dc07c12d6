package org.banyan.runtime.launch;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.tree.TopologySpec;

/**
 * The command line that starts a daemon JVM: the same JDK, class path, JVM flags and AOT cache
 * as the process that spawns it (hosts share the installation, as cluster nodes share a file
 * system), {@code DaemonMain}, and the daemon's place in the tree.
 */
public final class DaemonCommand {
    /** Start-up flags; must match the launcher script's so the AOT cache applies. */
    static final List<String> JVM_FLAGS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
            "-Xlog:disable", "-Xlog:all=error:stderr", "--enable-native-access=ALL-UNNAMED",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTReplayTraining");

    /**
     * For the JVMs that create processes natively, a DVM's (see {@link SpawnMode}), which live
     * long. C1 compiles a method after 50 calls instead of 200: a fresh DVM's first 10,000
     * tasks ran 3.6 % faster (7 interleaved runs, 2,454 against 2,368 tasks/s; its CPU per task
     * 0.201 against 0.216 ms) and the later ones no slower; the AOT cache still applies. The
     * submitting client gained nothing from it.
     *
     * <p>And the heap and compiled code go in 2 MB pages where the kernel gives them on request
     * (transparent huge pages in "madvise" or "always" mode; where it does not, the JVM goes on
     * with 4 KB pages and, with the log flags above, says nothing). A DVM's CPU per task fell
     * from 166 to 151 µs (27 bags of 10,000 {@code /bin/true} on fresh DVMs, interleaved; 22 of
     * the 27 lower; 4-6 % in 12 more on a busier machine), and its first bag takes 400 page
     * faults instead of 23,000. It costs about 40 MB of resident memory.
     *
     * <p>C1's thresholds grow with its queue by a fifth of the queue's length per compiler
     * thread ({@code Tier3LoadFeedback=5}); in a fresh JVM's first second that queue holds 13 to
     * 34 methods, so the task path waited for 3.6 to 7.8 times its calls and stayed interpreted
     * through the warm-up ({@code -XX:+PrintTieredEvents}). A hundredth keeps them near 50.
     * 0 is no cure: it made a DVM run at half speed for good.
     *
     * <p>A loop in a method entered once (a bag's submitting thread, the task manager's feed and
     * reader) is compiled by on-stack replacement after 60,000 turns by default, which a bag of
     * 10,000 tasks never reaches: a quarter of the bag thread's samples were the interpreter's.
     * After 2,000 turns, the DVM's threads other than the reapers took 0.144 of its tasks' CPU
     * instead of 0.155 (7 interleaved pairs of warm 10,000-task bags, perf; lower in 6).
     */
    static final List<String> DVM_FLAGS = List.of("-XX:Tier3InvocationThreshold=50",
            "-XX:Tier3MinInvocationThreshold=25", "-XX:Tier3CompileThreshold=500", "-XX:Tier3LoadFeedback=100",
            "-XX:Tier3BackEdgeThreshold=2000", "-XX:+UseTransparentHugePages");

    private DaemonCommand() {}

    public static List<String> build(int daemonId, String host, String parentAddress, LaunchAgent agent) {
        List<String> cmd = jvm();
        cmd.add("--parent");
        cmd.add(parentAddress);
        cmd.add("--id");
        cmd.add(Integer.toString(daemonId));
        cmd.add("--host");
        cmd.add(host);
        cmd.add("--agent");
        cmd.add(agent.spec());
        return cmd;
    }

    /**
     * The one command every daemon of a {@link LaunchAgent.SlurmStep} runs: each finds its id by
     * its node name in {@code hostlist} (Slurm syntax) and its parent through {@code tree}.
     */
    public static List<String> buildStatic(String headAddress, TopologySpec tree, String hostlist,
                                           LaunchAgent.SlurmStep agent) {
        List<String> cmd = jvm();
        cmd.addAll(List.of("--static", headAddress, "--tree", tree.toString(), "--hostlist", hostlist, "--agent", agent.spec()));
        return cmd;
    }

    private static List<String> jvm() {
        return jvmFor("org.banyan.runtime.daemon.DaemonMain");
    }

    /**
     * A JVM like this one (JDK, flags, AOT cache, class path) running {@code mainClass}: for a
     * daemon, or a DVM's head started by {@code banyan dvm start}.
     */
    public static List<String> jvmFor(String mainClass) {
        return jvmFor(mainClass, SpawnMode.current(), SpawnMode.inDvm());
    }

    /** A JVM for a DVM's head (and, through it, its daemons): {@link #DVM_FLAGS} and the DVM's property. */
    public static List<String> jvmForDvm(String mainClass) {
        return jvmFor(mainClass, SpawnMode.current(), true);
    }

    private static List<String> jvmFor(String mainClass, SpawnMode spawn, boolean dvm) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(JVM_FLAGS);
        if (dvm) {
            cmd.addAll(DVM_FLAGS);
            cmd.add("-D" + SpawnMode.DVM_PROPERTY + "=1");
        }
        String aot = System.getProperty("banyan.aot");
        if (aot != null && !aot.isEmpty()) {
            cmd.add("-XX:AOTCache=" + aot);
            cmd.add("-Dbanyan.aot=" + aot);
        }
        cmd.add(SpawnMode.PROPERTY_FLAG + spawn.name().toLowerCase(java.util.Locale.ROOT));
        String heartbeat = System.getProperty(org.banyan.runtime.net.Heartbeats.PROPERTY);
        if (heartbeat != null) { // the same failure detector on every link of the job
            cmd.add("-D" + org.banyan.runtime.net.Heartbeats.PROPERTY + "=" + heartbeat);
        }
        // When the parent asked for this daemon, for --report-launch (hosts' clocks agree well enough).
        cmd.add("-Dbanyan.spawned=" + System.currentTimeMillis());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        return cmd;
    }
}
