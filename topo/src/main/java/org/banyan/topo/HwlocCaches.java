package org.banyan.topo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The data and unified caches of a machine as hwloc sees them, in the form
 * {@link SysfsTopology#caches} gives: by level, each cache once, as the OS indexes of the PUs
 * that share it. For hosts whose kernel says nothing of its caches in /sys (a Firecracker VM has
 * no {@code cpuN/cache}): hwloc reads them from the processor itself (CPUID), and a locality
 * string without them is not the one mpirun gives Open MPI's ranks.
 */
public final class HwlocCaches {
    private HwlocCaches() {}

    /** From hwloc's XML (formats 1.x and 2.x); instruction caches left out, as hwloc's locality strings do. */
    public static Map<Integer, List<int[]>> of(String xml) {
        Map<Integer, Map<String, int[]>> byLevel = new TreeMap<>();
        NodeList objects = HwlocXml.document(xml).getElementsByTagName("object");
        for (int i = 0; i < objects.getLength(); i++) {
            Element e = (Element) objects.item(i);
            int level = dataCacheLevel(e);
            java.util.BitSet cpus = level > 0 ? HwlocXml.cpuset(e.getAttribute("cpuset")) : null;
            if (cpus != null && !cpus.isEmpty()) {
                byLevel.computeIfAbsent(level, l -> new LinkedHashMap<>()).putIfAbsent(cpus.toString(), cpus.stream().toArray());
            }
        }
        Map<Integer, List<int[]>> out = new TreeMap<>();
        byLevel.forEach((l, m) -> out.put(l, List.copyOf(m.values())));
        return out;
    }

    /** The level of a data or unified cache object (v2: {@code L2Cache}; v1: {@code Cache} with a depth), else 0. */
    private static int dataCacheLevel(Element e) {
        String type = e.getAttribute("type");
        if (type.matches("L[1-5]Cache")) {
            return type.charAt(1) - '0';
        }
        if (type.equals("Cache") && !e.getAttribute("cache_type").equals("2")) { // v1: 2 is an instruction cache
            try {
                return Integer.parseInt(e.getAttribute("depth"));
            } catch (NumberFormatException x) {
                return 0;
            }
        }
        return 0;
    }

    /**
     * This host's caches from {@code lstopo-no-graphics --of xml} (hwloc's command, when it is
     * installed), within a few seconds; empty when it is not there or fails.
     */
    public static Map<Integer, List<int[]>> fromLstopo() {
        try {
            Process p = new ProcessBuilder("lstopo-no-graphics", "--of", "xml", "--no-io")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            byte[][] xml = new byte[1][];
            Thread reader = Thread.ofVirtual().start(() -> { // a pipe's worth of XML would stall a process not read
                try {
                    xml[0] = p.getInputStream().readAllBytes();
                } catch (java.io.IOException e) {
                    // destroyed, or it failed: nothing
                }
            });
            if (!p.waitFor(10, TimeUnit.SECONDS)) { // a hung lstopo costs the daemon 10 s once, not for ever
                p.destroyForcibly();
                return Map.of();
            }
            reader.join(10_000);
            return p.exitValue() == 0 && xml[0] != null ? of(new String(xml[0], java.nio.charset.StandardCharsets.UTF_8)) : Map.of();
        } catch (java.io.IOException | IllegalArgumentException e) {
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    /** The caches /sys gives, else hwloc's (a host whose kernel does not list them). */
    public static Map<Integer, List<int[]>> local() {
        Map<Integer, List<int[]>> fromSys = SysfsTopology.caches();
        return fromSys.isEmpty() ? fromLstopo() : fromSys;
    }
}
