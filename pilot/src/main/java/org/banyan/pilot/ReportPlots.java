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
        XYChart conc = chart("tasks executing at once (peak " + r.peakConcurrency() + ", pilot cores " + r.cores() + ")",
                "tasks");
        conc.addSeries("executing", r.time(), r.concurrency()).setMarker(SeriesMarkers.NONE);
        save(conc, dir.resolve("concurrency"));
        XYChart states = chart("tasks per state", "tasks");
        for (Map.Entry<TaskState, double[]> e : r.inState().entrySet()) {
            states.addSeries(e.getKey().name(), r.time(), e.getValue()).setMarker(SeriesMarkers.NONE);
        }
        save(states, dir.resolve("states"));
        XYChart rate = chart("tasks ending per second", "tasks/s");
        rate.addSeries("throughput", r.time(), r.throughput()).setMarker(SeriesMarkers.NONE);
        save(rate, dir.resolve("throughput"));
    }

    private static XYChart chart(String title, String y) {
        XYChart c = new XYChartBuilder().width(900).height(500).title(title).xAxisTitle("seconds since the session began")
                .yAxisTitle(y).build();
        c.getStyler().setLegendVisible(true);
        c.getStyler().setXAxisDecimalPattern("0.0");
        return c;
    }

    private static void save(XYChart c, Path base) throws IOException {
        BitmapEncoder.saveBitmap(c, base.toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(c, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    }
}
