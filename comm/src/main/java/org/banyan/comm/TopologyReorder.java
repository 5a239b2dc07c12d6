package org.banyan.comm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.banyan.place.CommMatrix;
import org.banyan.topo.HwlocXml;
import org.banyan.topo.SysfsTopology;
import org.banyan.topo.Topology;

/**
 * The collective step of a topology's {@code reorder}: every rank tells where it runs (its host,
 * and the first CPU it is bound to: {@code BANYAN_CPUS}, which {@code banyan run --bind-to}
 * gives), rank 0 reads the machine's tree (this host's {@code /sys}, or the hwloc XML file
 * {@code BANYAN_COMM_TOPOLOGY} names; every host is taken to be alike), asks {@link Reordering}
 * and broadcasts each rank's new rank with a line saying what was done.
 */
final class TopologyReorder {
    private static final int NOTE_BYTES = 1024;

    /** This rank's new rank (its own when the order was kept), and what was done, in a line. */
    record Result(int newRank, int[] newRanks, String note) {}

    private TopologyReorder() {}

    /** Collective over {@code c}; {@code pattern} is asked at rank 0 only. */
    static Result run(Comm c, Supplier<CommMatrix> pattern) {
        int n = c.size();
        long[] cpus = new long[n];
        c.allgather(new long[] {c.engine.firstCpu}, cpus);
        int[] newRanks = new int[n];
        byte[] note = new byte[NOTE_BYTES];
        if (c.rank() == 0) {
            int[] hostOf = new int[n];
            int[] firstCpu = new int[n];
            for (int r = 0; r < n; r++) {
                hostOf[r] = c.engine.hostOf[c.group[r]];
                firstCpu[r] = (int) cpus[r];
            }
            Reordering.Outcome o;
            try {
                o = Reordering.of(pattern.get(), machine(c.engine.topologyFile), hostOf, firstCpu);
            } catch (RuntimeException e) {
                o = Reordering.Outcome.keep("the machine's topology could not be read: " + e.getMessage());
            }
            String said = o.newRank() == null ? "order kept: " + o.kept()
                    : String.format(java.util.Locale.ROOT, "reordered by TreeMatch: the pattern's cost on the machine %.0f -> %.0f",
                            o.costBefore(), o.costAfter());
            for (int r = 0; r < n; r++) {
                newRanks[r] = o.newRank() == null ? r : o.newRank()[r];
            }
            byte[] text = said.getBytes(StandardCharsets.UTF_8);
            System.arraycopy(text, 0, note, 0, Math.min(text.length, NOTE_BYTES));
        }
        c.bcast(newRanks, 0);
        c.bcast(note, 0);
        return new Result(newRanks[c.rank()], newRanks, new String(note, StandardCharsets.UTF_8).replace("\0", ""));
    }

    /** One host's tree: the hwloc XML file named, else this host's {@code /sys} (every CPU, not only this rank's). */
    private static Topology machine(String xmlFile) {
        if (xmlFile != null && !xmlFile.isEmpty()) {
            try {
                return HwlocXml.parse(Files.readString(Path.of(xmlFile)));
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("cannot read BANYAN_COMM_TOPOLOGY " + xmlFile + ": " + e.getMessage());
            }
        }
        return SysfsTopology.host();
    }

    /** The first CPU of a list such as {@code 4-7,12} ({@code BANYAN_CPUS}), or -1 when there is none. */
    static int firstCpu(String list) {
        if (list == null || list.isBlank()) {
            return -1;
        }
        String first = list.strip().split("[,-]", 2)[0];
        try {
            return Integer.parseInt(first);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
