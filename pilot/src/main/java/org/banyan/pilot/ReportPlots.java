package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.banyan.core.pilot.TaskState;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The plots of {@code banyan pilot report}: concurrency, tasks per state and throughput, against time (PNG and SVG). */
public final class ReportPlots {
    private ReportPlots() {}

    /** Writes {@code concurrency.png|svg}, {@code states.png|svg} and {@code throughput.png|svg} into {@code dir}. */
    public static void write(ProfileReport r, Path dir) throws IOException {
        // Cores against cores: a task's cores while it executes, averaged over each stretch of the
        // run (instants caught tasks of a millisecond or missed them), under the pilot's cores.
        XYChart conc = chart("cores executing tasks (mean over each 1/" + (r.time().length - 1) + " of the run; peak "
                + r.peakConcurrency() + " tasks at once)", "cores", r.time()[r.time().length - 1]);
        if (r.cores() > 0) { // first and dashed: the cores executing, often the same, are drawn over it
            double[] all = new double[r.time().length];
            java.util.Arrays.fill(all, r.cores());
            conc.addSeries("pilot cores (" + r.cores() + ")", r.time(), all).setMarker(SeriesMarkers.NONE)
                    .setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
        }
        conc.addSeries("cores executing", r.time(), r.coresBusy()).setMarker(SeriesMarkers.NONE);
        double top = Math.max(r.cores(), java.util.Arrays.stream(r.coresBusy()).max().orElse(1));
        conc.getStyler().setYAxisMin(0.0).setYAxisMax(Math.max(1, top) * 1.15);
        save(conc, dir.resolve("concurrency"));
        // Executing on an axis of its own (right): a few cores' worth of tasks drew a flat line
        // under thousands waiting on one axis.
        XYChart states = chart("tasks per state (executing on the right axis)", "tasks", r.time()[r.time().length - 1]);
        for (Map.Entry<TaskState, double[]> e : r.inState().entrySet()) {
            var series = states.addSeries(e.getKey().name(), r.time(), e.getValue());
            series.setMarker(SeriesMarkers.NONE);
            if (e.getKey() == TaskState.AGENT_EXECUTING) {
                series.setYAxisGroup(1);
            }
        }
        states.setYAxisGroupTitle(1, "tasks executing");
        states.getStyler().setYAxisGroupPosition(1, org.knowm.xchart.style.Styler.YAxisPosition.Right);
        double most = java.util.Arrays.stream(r.inState().getOrDefault(TaskState.AGENT_EXECUTING, new double[] {1})).max().orElse(1);
        states.getStyler().setYAxisMin(1, 0.0).setYAxisMax(1, Math.max(1, most) * 1.15);
        save(states, dir.resolve("states"));
        XYChart rate = chart("tasks ending per second", "tasks/s", r.time()[r.time().length - 1]);
        rate.addSeries("throughput", r.time(), r.throughput()).setMarker(SeriesMarkers.NONE);
        save(rate, dir.resolve("throughput"));
    }

    private static XYChart chart(String title, String y, double seconds) {
        XYChart c = new XYChartBuilder().width(900).height(500).title(title).xAxisTitle("seconds since the session began")
                .yAxisTitle(y).build();
        c.getStyler().setLegendVisible(true);
        c.getStyler().setXAxisDecimalPattern(seconds > 10 ? "#,##0" : "0.0#"); // whole seconds: a long run's ran into each other
        c.getStyler().setYAxisDecimalPattern("#,##0.#"); // 100,000 tasks, not 1E5
        c.getStyler().setXAxisTickMarkSpacingHint(90);
        return c;
    }

    private static void save(XYChart c, Path base) throws IOException {
        BitmapEncoder.saveBitmap(c, base.toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(c, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    }
}
