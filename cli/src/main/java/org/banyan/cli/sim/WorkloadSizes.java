package org.banyan.cli.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.banyan.rm.workload.WorkloadJob;
import org.banyan.rm.workload.WorkloadSetup;
import org.banyan.rm.workload.WorkloadSimulation;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * {@code banyan sim workload --sizes 50,100,200,400 [--plots DIR]}: the seed's Table 4 for one
 * set-up — per workload size, both policies' utilisation, mean wait, execution and completion
 * per job, and the makespan — and, with {@code --plots}, its Figures 4 and 5 (the makespan and
 * the mean wait by size, fixed beside flexible, the gain in each label) and Figure 6 (the
 * smallest workload's allocated nodes, running and completed jobs over time).
 */
final class WorkloadSizes {
    private WorkloadSizes() {}

    record Row(int jobs, WorkloadSimulation.Result fixed, WorkloadSimulation.Result flexible) {
        double gain() {
            return 100 * (1 - flexible.meanCompletion() / fixed.meanCompletion());
        }
    }

    static List<Row> run(WorkloadSetup setup, List<Integer> sizes, double inhibit) {
        List<Row> rows = new ArrayList<>();
        for (int n : sizes) {
            List<WorkloadJob> w = setup.withJobs(n).generate();
            rows.add(new Row(n, new WorkloadSimulation(w, setup.nodes(), false, inhibit).run(),
                    new WorkloadSimulation(w, setup.nodes(), true, inhibit).run()));
        }
        return rows;
    }

    static String table(WorkloadSetup setup, List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "set-up %s on %d nodes, seed %d%n", setup.name(), setup.nodes(), setup.seed()));
        b.append("| jobs | policy | utilisation | mean wait s | mean exec s | mean completion s | makespan s |\n");
        b.append("|---:|---|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            for (WorkloadSimulation.Result x : List.of(r.fixed(), r.flexible())) {
                b.append(String.format(Locale.ROOT, "| %d | %s | %.1f %% | %,.0f | %,.0f | %,.0f%s | %,.0f |%n", r.jobs(),
                        x.flexible() ? "flexible" : "fixed", 100 * x.utilisation(), x.meanWait(), x.meanExec(),
                        x.meanCompletion(), x.flexible() ? String.format(Locale.ROOT, " (%+.1f %%)", -r.gain()) : "",
                        x.completionSeconds()));
            }
        }
        return b.toString();
    }

    /** figure4.png (makespan by size), figure5.png (mean wait by size), table4.md, and Figure 6's timelines of the smallest. */
    static void plots(Path dir, WorkloadSetup setup, List<Row> rows) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("table4.md"), table(setup, rows));
        List<String> sizes = rows.stream().map(r -> Integer.toString(r.jobs())).toList();
        CategoryChart fig4 = chart("Workload completion (makespan) by size: " + setup.name(), "makespan (s)");
        fig4.addSeries("fixed", sizes, rows.stream().map(r -> r.fixed().completionSeconds()).toList());
        fig4.addSeries("flexible (" + gains(rows, true) + ")", sizes, rows.stream().map(r -> r.flexible().completionSeconds()).toList());
        BitmapEncoder.saveBitmap(fig4, dir.resolve("figure4").toString(), BitmapEncoder.BitmapFormat.PNG);
        CategoryChart fig5 = chart("Mean waiting time per job by size: " + setup.name(), "mean wait (s)");
        fig5.addSeries("fixed", sizes, rows.stream().map(r -> r.fixed().meanWait()).toList());
        fig5.addSeries("flexible (" + gains(rows, false) + ")", sizes, rows.stream().map(r -> r.flexible().meanWait()).toList());
        BitmapEncoder.saveBitmap(fig5, dir.resolve("figure5").toString(), BitmapEncoder.BitmapFormat.PNG);
        Row smallest = rows.getFirst();
        WorkloadCommand.writeTimelines(dir.resolve("figure6"), List.of(smallest.fixed(), smallest.flexible()));
    }

    /** Each size's gain of the flexible policy, in makespan or in mean wait. */
    private static String gains(List<Row> rows, boolean makespan) {
        List<String> g = new ArrayList<>();
        for (Row r : rows) {
            double v = makespan ? 1 - r.flexible().completionSeconds() / r.fixed().completionSeconds()
                    : 1 - r.flexible().meanWait() / r.fixed().meanWait();
            g.add(String.format(Locale.ROOT, "%+.0f %%", -100 * v));
        }
        return String.join(", ", g);
    }

    private static CategoryChart chart(String title, String y) {
        CategoryChart c = new CategoryChartBuilder().width(900).height(500).title(title).xAxisTitle("jobs in the workload")
                .yAxisTitle(y).build();
        c.getStyler().setYAxisDecimalPattern("#,##0");
        return c;
    }
}
