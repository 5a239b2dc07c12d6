package org.banyan.place;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Open MPI's rankfile, the placement {@code banyan place} writes and {@code banyan run
 * --rankfile} reads:
 *
 * <pre>
 *   # comment
 *   rank 0=host-a slot=0:2        package 0, core 2 (logical numbers)
 *   rank 1=host-a slot=3          core 3 of the host
 *   rank 2=host-b slot=1:0-3      cores 0 to 3 of package 1; lists with ',' too
 * </pre>
 *
 * Every rank from 0 to the largest appears once. Slots are logical: the n-th package and the
 * n-th core in hwloc's order, whatever the operating system numbers them.
 */
public final class Rankfile {
    /** One line: a rank, its host and its slot. */
    public record Entry(int rank, String host, String slot) {}

    private Rankfile() {}

    /** The entries of a rankfile, by rank; {@code origin} names the file in messages. */
    public static List<Entry> parse(String text, String origin) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            line = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = origin + " line " + (i + 1);
            String[] w = line.split("\\s+");
            if (w.length != 3 || !w[0].equals("rank") || !w[1].contains("=") || !w[2].startsWith("slot=")) {
                throw new IllegalArgumentException(where + ": expected 'rank N=HOST slot=SLOT', got '" + line + "'");
            }
            String[] rh = w[1].split("=", 2);
            int rank;
            try {
                rank = Integer.parseInt(rh[0]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": '" + rh[0] + "' is not a rank number");
            }
            if (rank < 0 || rh[1].isEmpty() || w[2].length() == "slot=".length()) {
                throw new IllegalArgumentException(where + ": expected 'rank N=HOST slot=SLOT', got '" + line + "'");
            }
            entries.add(new Entry(rank, rh[1], w[2].substring("slot=".length())));
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(origin + " places no rank");
        }
        entries.sort(Comparator.comparingInt(Entry::rank));
        for (int r = 0; r < entries.size(); r++) {
            if (entries.get(r).rank() != r) {
                int missingOrTwice = r < entries.get(r).rank() ? r : entries.get(r).rank();
                throw new IllegalArgumentException(origin + ": rank " + missingOrTwice
                        + (r < entries.get(r).rank() ? " is missing" : " appears twice"));
            }
        }
        return entries;
    }

    /** The text of a rankfile, with a comment line first when {@code header} is not null. */
    public static String format(List<Entry> entries, String header) {
        StringBuilder b = new StringBuilder();
        if (header != null) {
            for (String l : header.split("\n")) {
                b.append("# ").append(l).append('\n');
            }
        }
        for (Entry e : entries) {
            b.append("rank ").append(e.rank()).append('=').append(e.host()).append(" slot=").append(e.slot()).append('\n');
        }
        return b.toString();
    }

    /**
     * The entries of a placement on a cluster topology: leaf → host (the object of the level
     * named {@code host}, or the one host when there is none) and slot ({@code PACKAGE:CORE}
     * when the host has packages, else the core's number on its host).
     *
     * @param hosts the host names, one per host object, in order
     */
    public static List<Entry> of(int[] leafOf, org.banyan.topo.Topology cluster, List<String> hosts) {
        int hostLevel = cluster.levelNamed("host");
        int perHost = cluster.leavesUnder(hostLevel);
        int pkgLevel = cluster.levelNamed("Package") >= 0 ? cluster.levelNamed("Package") : cluster.levelNamed("socket");
        int perPackage = pkgLevel > hostLevel ? cluster.leavesUnder(pkgLevel) : -1;
        if (hosts.size() != cluster.leaves() / perHost) {
            throw new IllegalArgumentException(hosts.size() + " host names for " + cluster.leaves() / perHost + " hosts");
        }
        // logical numbers count what exists: packages with a usable core, usable cores (holes are padding)
        int[] usableBefore = new int[cluster.leaves() + 1];
        for (int leaf = 0; leaf < cluster.leaves(); leaf++) {
            usableBefore[leaf + 1] = usableBefore[leaf] + (cluster.usable(leaf) ? 1 : 0);
        }
        List<Entry> out = new ArrayList<>(leafOf.length);
        for (int r = 0; r < leafOf.length; r++) {
            int leaf = leafOf[r];
            int hostStart = leaf / perHost * perHost;
            String slot;
            if (perPackage > 0) {
                int pkgStart = leaf / perPackage * perPackage;
                int pkg = 0;
                for (int p = hostStart; p < pkgStart; p += perPackage) {
                    pkg += usableBefore[p + perPackage] > usableBefore[p] ? 1 : 0;
                }
                slot = pkg + ":" + (usableBefore[leaf] - usableBefore[pkgStart]);
            } else {
                slot = Integer.toString(usableBefore[leaf] - usableBefore[hostStart]);
            }
            out.add(new Entry(r, hosts.get(leaf / perHost), slot));
        }
        return out;
    }

    /** Hosts in order of first appearance. */
    public static List<String> hosts(List<Entry> entries) {
        return entries.stream().map(Entry::host).distinct().toList();
    }
}
