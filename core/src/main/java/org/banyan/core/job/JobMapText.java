package org.banyan.core.job;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --display-map}: where a job's ranks go, host by host, as Open MPI's mpirun lays its job
 * map out (a block per host with its slots and its ranks, one line per rank), printed before the
 * ranks start. The CPUs a rank is bound to are known only on its host: {@code --report-bindings}
 * prints those.
 */
public final class JobMapText {
    private JobMapText() {}

    public static List<String> lines(JobDescription job, RankMap map) {
        List<String> out = new ArrayList<>();
        String title = "   JOB MAP (job " + job.jobId() + ", " + map.size() + " rank" + (map.size() == 1 ? "" : "s") + ")   ";
        int side = Math.max(3, (RULE - title.length()) / 2);
        out.add(" " + "=".repeat(side) + title + "=".repeat(side));
        for (int n = 0; n < job.nodes().size(); n++) {
            int[] ranks = map.ranksOf(n);
            if (ranks.length == 0) {
                continue;
            }
            Node node = job.nodes().get(n);
            out.add(" Data for node: " + node.name() + "\tNum slots: " + node.slots() + "\tNum procs: " + ranks.length);
            for (int r : ranks) {
                out.add(" \tProcess rank: " + r + "\tApp: " + map.appOf(r) + "\tLocal rank: " + map.localRankOf(r));
            }
        }
        out.add(" " + "=".repeat(2 * side + title.length()));
        return out;
    }

    private static final int RULE = 61;
}
