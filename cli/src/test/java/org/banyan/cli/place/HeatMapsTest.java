package org.banyan.cli.place;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a person sees in a heat map, read back from the PNG's pixels. */
class HeatMapsTest {
    @TempDir
    Path dir;

    /**
     * Rank 0 at the top, as in the CSV; 320 B and 1 GB both in the scale (on a linear one 320 B
     * looked like nothing); a cell without traffic in a colour of its own, not the scale's low end.
     */
    @Test
    void rankZeroIsOnTopAndSmallAndZeroCellsAreDistinct() throws Exception {
        long[][] m = new long[8][8];
        m[0][7] = 320; // top right
        m[7][0] = 1_000_000_000L; // bottom left
        m[3][4] = 40_000;
        HeatMaps.write(m, "t", dir.resolve("h"));
        BufferedImage png = ImageIO.read(dir.resolve("h.png").toFile());
        HeatMapDrawing d = new HeatMapDrawing(m);
        assertThat(pixel(png, d, 0, 7)).as("top right: rank 0 sends to 7").isEqualTo(d.colour(320));
        assertThat(pixel(png, d, 7, 0)).as("bottom left: rank 7 sends to 0").isEqualTo(d.colour(1_000_000_000L));
        assertThat(pixel(png, d, 0, 0)).isEqualTo(HeatMapDrawing.ZERO);
        assertThat(HeatMapDrawing.ZERO).isNotEqualTo(d.colour(320)).isNotEqualTo(HeatMapDrawing.ramp(0));
        Color middle = d.colour(40_000);
        assertThat(middle).as("40 kB halfway up a log scale from 320 B to 1 GB, not at its bottom")
                .isNotEqualTo(d.colour(320)).isNotEqualTo(d.colour(1_000_000_000L));
        String svg = Files.readString(dir.resolve("h.svg"));
        assertThat(svg).contains("bytes (log)").contains(">1 GB<").contains(">1 kB<").contains(">none<").contains(">320 B<");
    }

    /** Labels thinned so they never run together; at 256 ranks every 16th, and the drawing is whole. */
    @Test
    void twoHundredFiftySixRanksHaveThinnedLabelsAndEveryCell() throws Exception {
        int n = 256;
        long[][] m = new long[n][n];
        Random r = new Random(1);
        for (int i = 0; i < n; i++) {
            m[i][(i + 1) % n] = 1 + r.nextInt(1 << 20);
            m[i][(i + n - 1) % n] = 1 + r.nextInt(1 << 20);
            m[i][(i + 16) % n] = 100;
        }
        HeatMaps.write(m, "256", dir.resolve("big"));
        HeatMapDrawing d = new HeatMapDrawing(m);
        assertThat(d.cell).isEqualTo(4);
        int step = HeatMapDrawing.labelStep(n, d.cell);
        assertThat(step * d.cell).as("labels at least 28 px apart").isGreaterThanOrEqualTo(28);
        assertThat(step).isEqualTo(8);
        String svg = Files.readString(dir.resolve("big.svg"));
        assertThat(svg).contains(">248<").doesNotContain(">1<");
        BufferedImage png = ImageIO.read(dir.resolve("big.png").toFile());
        assertThat(pixel(png, d, 200, 216)).isEqualTo(d.colour(100));
        assertThat(HeatMapDrawing.labelStep(4, 48)).isEqualTo(1);
        assertThat(HeatMapDrawing.labelStep(64, 16)).isEqualTo(2);
    }

    @Test
    void bytesReadAsAPersonWritesThem() {
        assertThat(HeatMapDrawing.bytes(320)).isEqualTo("320 B");
        assertThat(HeatMapDrawing.bytes(4_096)).isEqualTo("4.1 kB");
        assertThat(HeatMapDrawing.bytes(12_345_678)).isEqualTo("12 MB");
        assertThat(HeatMapDrawing.bytes(1_000_000_000L)).isEqualTo("1 GB");
    }

    /** The colour in the middle of cell (from, to). */
    private static Color pixel(BufferedImage png, HeatMapDrawing d, int from, int to) {
        return new Color(png.getRGB(d.cellX(to) + d.cell / 2 - (d.cell >= 46 ? d.cell / 3 : 0), d.cellY(from) + d.cell / 2 - (d.cell >= 46 ? d.cell / 3 : 0)));
    }
}
