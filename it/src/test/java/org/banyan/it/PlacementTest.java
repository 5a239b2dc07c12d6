package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.banyan.topo.CpuBinding;
import org.banyan.topo.CpuList;
import org.banyan.topo.SysfsTopology;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mapping and binding under banyan run, read back from each rank's own view of its affinity
 * ({@code Cpus_allowed_list} in /proc/self/status), and the monitor → place → run loop.
 */
class PlacementTest {
    private static final Pattern ALLOWED = Pattern.compile("\\[1,(\\d+)\\]<stdout>:Cpus_allowed_list:\\s*(\\S+)");

    @TempDir
    static Path dir;
    static String classPath;
    static CpuBinding host;

    @BeforeAll
    static void setUp() throws Exception {
        classPath = CommExamples.compile(dir.resolve("classes"));
        host = new CpuBinding(SysfsTopology.local());
    }

    /** Each rank's CPUs as it sees them, by rank. */
    static Map<Integer, String> allowed(String stdout) {
        Map<Integer, String> out = new TreeMap<>();
        Matcher m = ALLOWED.matcher(stdout);
        while (m.find()) {
            out.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        return out;
    }

    static String cpus(int[] cpus) {
        return CpuList.format(cpus);
    }

    @Test
    void aRankfileIsHonouredWhateverSpawnsTheRanks() throws Exception {
        Assumptions.assumeTrue(host.cores() >= 2, "needs two cores");
        Path rf = dir.resolve("reversed");
        Files.writeString(rf, "rank 0=localhost slot=1\nrank 1=localhost slot=0\n");
        for (String spawn : List.of("jdk", "native")) {
            Banyan.Result r = Banyan.run(Map.of("BANYAN_SPAWN", spawn), null, List.of("run", "--rankfile", rf.toString(),
                    "--tag-output", "--report-bindings", "sh", "-c", "grep Cpus_allowed_list /proc/self/status"));
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(allowed(r.stdout())).as(spawn).containsEntry(0, cpus(host.ofSlot("1"))).containsEntry(1, cpus(host.ofSlot("0")));
            assertThat(r.stderr()).contains("banyan: rank 0 on localhost bound to cpus " + cpus(host.ofSlot("1")));
        }
    }

    @Test
    void policiesBindByCoreAndByPackage() throws Exception {
        Assumptions.assumeTrue(host.cores() >= 2, "needs two cores");
        Banyan.Result r = Banyan.run("run", "-n", "2", "--bind-to", "core", "--tag-output", "sh", "-c",
                "grep Cpus_allowed_list /proc/self/status");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(allowed(r.stdout())).containsEntry(0, cpus(host.of(0, false, CpuBinding.Target.CORE, 1)))
                .containsEntry(1, cpus(host.of(1, false, CpuBinding.Target.CORE, 1)));
        Banyan.Result all = Banyan.run("run", "-n", "1", "--bind-to", "core", "--cpus-per-rank", "2", "--tag-output", "sh",
                "-c", "grep Cpus_allowed_list /proc/self/status");
        assertThat(allowed(all.stdout())).containsEntry(0, cpus(host.of(0, false, CpuBinding.Target.CORE, 2)));
        Banyan.Result free = Banyan.run("run", "-n", "1", "--tag-output", "sh", "-c", "grep Cpus_allowed_list /proc/self/status");
        assertThat(allowed(free.stdout())).as("not bound unless asked").containsEntry(0,
                CpuList.format(java.util.stream.IntStream.range(0, Runtime.getRuntime().availableProcessors()).toArray()));
    }

    @Test
    void aSlotTheHostDoesNotHaveIsRefusedBeforeLaunch() throws Exception {
        Path rf = dir.resolve("too-far");
        Files.writeString(rf, "rank 0=localhost slot=" + host.cores() + "\n");
        String marker = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "--rankfile", rf.toString(), "sleep", marker);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr()).isEqualTo("banyan run: rank 0 on localhost: slot " + host.cores() + ": this host has "
                + host.cores() + " core" + (host.cores() == 1 ? "" : "s") + "\n");
        assertThat(Banyan.processesWith(marker)).isEmpty();
    }

    /**
     * The loop of docs/placement.md: monitor a run, place it with this machine's lstopo XML on
     * four hosts like this one, run again with the rankfile on those hosts (daemons started
     * locally under their names), and find each rank where the rankfile put it.
     */
    @Test
    void monitorPlaceAndRunAgain() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/lstopo")), "lstopo is not installed (apt-get install hwloc)");
        Assumptions.assumeTrue(host.cores() == 2, "the host list below assumes two cores a host");
        Path mon = dir.resolve("mon");
        Banyan.Result monitored = Banyan.run(CommExamples.command(List.of("-n", "8", "--monitor-out", mon.toString()), classPath,
                "Reduce", "128", "10").toArray(String[]::new));
        assertThat(monitored.exit()).as(monitored.stderr()).isZero();
        Path xml = dir.resolve("this-machine.xml");
        Process lstopo = new ProcessBuilder("lstopo", "--of", "xml", xml.toString()).redirectErrorStream(true).start();
        assertThat(lstopo.waitFor()).isZero();
        Path rf = dir.resolve("placed");
        Banyan.Result place = Banyan.run("place", "--matrix", mon.toString(), "--topology", xml.toString(), "--hosts",
                "h0,h1,h2,h3", "--output", rf.toString());
        assertThat(place.exit()).as(place.stderr()).isZero();
        assertThat(place.stdout()).contains("8 ranks on host:4").contains("treematch").contains("rankfile: " + rf);
        List<String> lines = new ArrayList<>(Files.readAllLines(rf).stream().filter(l -> l.startsWith("rank ")).toList());
        assertThat(lines).hasSize(8);
        // the binomial reduce's heaviest pairs (2k+1 sends to 2k) share a host
        Map<Integer, String> hostOf = new TreeMap<>();
        for (String l : lines) {
            Matcher m = Pattern.compile("rank (\\d+)=(\\S+) slot=(\\S+)").matcher(l);
            assertThat(m.matches()).as(l).isTrue();
            hostOf.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        for (int k = 0; k < 4; k++) {
            assertThat(hostOf.get(2 * k + 1)).as("rank " + (2 * k + 1)).isEqualTo(hostOf.get(2 * k));
        }
        Banyan.Result again = Banyan.run(CommExamples.command(List.of("--launcher", "local", "--rankfile", rf.toString(),
                "--report-bindings"), classPath, "Reduce", "128", "10").toArray(String[]::new));
        assertThat(again.exit()).as(again.stderr()).isZero();
        assertThat(again.stdout()).contains("(correct)");
        Banyan.Result seen = Banyan.run("run", "--launcher", "local", "--rankfile", rf.toString(), "--tag-output", "sh", "-c",
                "grep Cpus_allowed_list /proc/self/status; echo host $BANYAN_NODE_RANK");
        assertThat(seen.exit()).as(seen.stderr()).isZero();
        Map<Integer, String> seenCpus = allowed(seen.stdout());
        for (String l : lines) {
            Matcher m = Pattern.compile("rank (\\d+)=(\\S+) slot=(\\S+)").matcher(l);
            assertThat(m.matches()).isTrue();
            int rank = Integer.parseInt(m.group(1));
            assertThat(seenCpus.get(rank)).as("rank " + rank).isEqualTo(cpus(host.ofSlot(m.group(3))));
            assertThat(again.stderr()).contains("banyan: rank " + rank + " on " + m.group(2) + " bound to cpus "
                    + cpus(host.ofSlot(m.group(3))));
        }
    }
}
