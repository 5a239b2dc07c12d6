package org.banyan.cli.place;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;

/** A communication matrix drawn as a heat map: x the receiver, y the sender, colour the bytes. */
final class HeatMaps {
    private HeatMaps() {}

    static void write(long[][] m, String title, Path base) throws IOException {
        int n = m.length;
        int side = Math.max(400, Math.min(1200, 200 + 12 * n));
        HeatMapChart c = new HeatMapChartBuilder().width(side + 150).height(side).title(title).xAxisTitle("receiver rank")
                .yAxisTitle("sender rank").build();
        c.getStyler().setShowValue(n <= 16);
        c.getStyler().setHeatMapValueDecimalPattern("#,##0");
        c.getStyler().setPlotContentSize(1.0);
        List<Integer> ranks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ranks.add(i);
        }
        List<Number[]> cells = new ArrayList<>();
        long max = 0;
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                cells.add(new Number[] {to, from, m[from][to]});
                max = Math.max(max, m[from][to]);
            }
        }
        c.getStyler().setMin(0);
        c.getStyler().setMax(Math.max(1, max));
        c.addSeries("bytes", ranks, ranks, cells);
        BitmapEncoder.saveBitmap(c, base.toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(c, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    }
}
