package org.banyan.cli.place;

import java.awt.Color;
import java.util.Locale;

/**
 * A communication matrix as a heat map a person can read at 4 ranks and at 256: rank 0 at the
 * top left, as the CSV has it (rows send, columns receive); colour on a logarithmic scale between
 * the smallest and the largest non-zero cell, so 320 B and 1 GB both show; zero cells in a colour
 * of their own, outside the scale; a colour bar in bytes; axis labels thinned so they never run
 * together; values written in the cells only where they fit. It draws on a {@link Canvas}, so the
 * PNG and the SVG are the same picture.
 */
final class HeatMapDrawing {
    /** What the drawing needs of a surface. */
    interface Canvas {
        void rect(int x, int y, int w, int h, Color fill);

        /** Text with its baseline at {@code y}; {@code anchor} -1 left, 0 centre, 1 right; {@code vertical}: read bottom to top. */
        void text(int x, int y, String s, int size, int anchor, Color colour, boolean vertical);
    }

    /** Cells without traffic: outside the colour scale, so never mistaken for its low end. */
    static final Color ZERO = new Color(0xF2, 0xF2, 0xF2);
    /** viridis at nine even steps: dark blue (little) to yellow (most), readable in grey and by most colour-blind eyes. */
    private static final int[] STOPS = {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725};
    private static final int LEFT = 78;
    private static final int TOP = 44;
    private static final int BAR_GAP = 24;
    private static final int BAR_WIDTH = 18;
    private static final int RIGHT = 120;
    private static final int BOTTOM = 56;
    /** Side of the plot: cells of at most 48 px, and the whole at most this. */
    private static final int MAX_PLOT = 1024;
    /** Closest two axis labels may come, in pixels. */
    private static final int LABEL_SPACING = 28;
    /** Narrowest cell that gets its value written in it. */
    private static final int VALUE_CELL = 46;

    final long[][] m;
    final int n;
    final int cell;
    final int plot;
    private final long lo;
    private final long hi;

    HeatMapDrawing(long[][] matrix) {
        this.m = matrix;
        this.n = matrix.length;
        this.cell = Math.max(1, Math.min(48, MAX_PLOT / Math.max(1, n)));
        this.plot = Math.max(1, cell * n);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long[] row : matrix) {
            for (long v : row) {
                if (v > 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        this.lo = max == 0 ? 1 : min;
        this.hi = Math.max(1, max);
    }

    int width() {
        return LEFT + Math.max(plot, 240) + BAR_GAP + BAR_WIDTH + RIGHT;
    }

    int height() {
        return TOP + Math.max(plot, 240) + BOTTOM;
    }

    /** Pixel of the top-left corner of cell (sender {@code from}, receiver {@code to}). */
    int cellX(int to) {
        return LEFT + to * cell;
    }

    int cellY(int from) {
        return TOP + from * cell;
    }

    /** The colour of a cell of {@code bytes}. */
    Color colour(long bytes) {
        if (bytes <= 0) {
            return ZERO;
        }
        double t = hi == lo ? 1 : (Math.log(bytes) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
        return ramp(Math.max(0, Math.min(1, t)));
    }

    /** The scale at {@code t} from 0 to 1. */
    static Color ramp(double t) {
        double x = t * (STOPS.length - 1);
        int i = Math.min(STOPS.length - 2, (int) x);
        double f = x - i;
        int a = STOPS[i];
        int b = STOPS[i + 1];
        return new Color(mix(a >> 16, b >> 16, f), mix(a >> 8, b >> 8, f), mix(a, b, f));
    }

    private static int mix(int a, int b, double f) {
        return (int) Math.round((a & 0xFF) + ((b & 0xFF) - (a & 0xFF)) * f);
    }

    /** Every how many ranks an axis gets a label: a power of two, so the labels fall on 0, 16, 32... */
    static int labelStep(int n, int cell) {
        int step = 1;
        while (step * cell < LABEL_SPACING && step < n) {
            step *= 2;
        }
        return step;
    }

    void draw(Canvas c, String title) {
        c.rect(0, 0, width(), height(), Color.WHITE);
        c.text(LEFT, TOP - 18, title, 15, -1, Color.BLACK, false);
        c.rect(LEFT, TOP, plot, plot, ZERO); // then the cells with traffic: a sparse matrix is a small SVG
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                if (m[from][to] > 0) {
                    c.rect(cellX(to), cellY(from), cell, cell, colour(m[from][to]));
                }
            }
        }
        if (cell >= 6) { // grid lines only where they leave room for the colour
            Color line = Color.WHITE;
            for (int i = 1; i < n; i++) {
                c.rect(LEFT + i * cell, TOP, 1, plot, line);
                c.rect(LEFT, TOP + i * cell, plot, 1, line);
            }
        }
        if (cell >= VALUE_CELL) {
            for (int from = 0; from < n; from++) {
                for (int to = 0; to < n; to++) {
                    if (m[from][to] > 0) {
                        Color bg = colour(m[from][to]);
                        boolean dark = 0.299 * bg.getRed() + 0.587 * bg.getGreen() + 0.114 * bg.getBlue() < 140;
                        c.text(cellX(to) + cell / 2, cellY(from) + cell / 2 + 4, bytes(m[from][to]), 11, 0,
                                dark ? Color.WHITE : Color.BLACK, false);
                    }
                }
            }
        }
        int step = labelStep(n, cell);
        for (int r = 0; r < n; r += step) {
            c.text(cellX(r) + cell / 2, TOP + plot + 16, Integer.toString(r), 11, 0, Color.DARK_GRAY, false);
            c.text(LEFT - 6, cellY(r) + cell / 2 + 4, Integer.toString(r), 11, 1, Color.DARK_GRAY, false);
        }
        c.text(LEFT + plot / 2, TOP + plot + 40, "receiver rank", 12, 0, Color.BLACK, false);
        c.text(LEFT - 46, TOP + plot / 2, "sender rank", 12, 0, Color.BLACK, true);
        drawBar(c);
    }

    /** The colour bar: the scale from the smallest to the largest non-zero cell, labelled in bytes at each power of ten; zero below it. */
    private void drawBar(Canvas c) {
        int x = LEFT + plot + BAR_GAP;
        int h = Math.max(120, Math.min(plot, 400) - 40);
        int top = TOP;
        for (int y = 0; y < h; y++) {
            c.rect(x, top + y, BAR_WIDTH, 1, ramp(1 - (double) y / (h - 1)));
        }
        c.text(x, top - 6, "bytes (log)", 11, -1, Color.BLACK, false);
        double l = Math.log10(lo);
        double u = Math.log10(hi);
        if (hi == lo) {
            c.text(x + BAR_WIDTH + 4, top + 4, bytes(hi), 11, -1, Color.DARK_GRAY, false);
        } else {
            int labels = 0;
            for (int k = (int) Math.ceil(l); k <= (int) Math.floor(u); k++) {
                int y = top + (int) Math.round((u - k) / (u - l) * (h - 1));
                c.rect(x + BAR_WIDTH, y, 4, 1, Color.DARK_GRAY);
                c.text(x + BAR_WIDTH + 7, y + 4, bytes((long) Math.pow(10, k)), 11, -1, Color.DARK_GRAY, false);
                labels++;
            }
            if (labels < 2) { // less than a decade: the ends themselves
                c.text(x + BAR_WIDTH + 7, top + 4, bytes(hi), 11, -1, Color.DARK_GRAY, false);
                c.text(x + BAR_WIDTH + 7, top + h, bytes(lo), 11, -1, Color.DARK_GRAY, false);
            }
        }
        c.rect(x, top + h + 14, BAR_WIDTH, 12, ZERO);
        c.text(x + BAR_WIDTH + 7, top + h + 24, "none", 11, -1, Color.DARK_GRAY, false);
    }

    /** Bytes as a person reads them: 320 B, 4.1 kB, 12 MB, 1.1 GB (powers of ten, as the scale's labels). */
    static String bytes(long v) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
        double x = v;
        int u = 0;
        while (x >= 1000 && u < units.length - 1) {
            x /= 1000;
            u++;
        }
        boolean tenths = u > 0 && x < 10 && Math.abs(x - Math.round(x)) >= 0.05;
        return String.format(Locale.ROOT, tenths ? "%.1f %s" : "%.0f %s", x, units[u]);
    }
}
