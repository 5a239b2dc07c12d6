import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/** A log-log line chart written as PNG (Java2D) and SVG (text), with the JDK alone; for the bench plots. */
final class LogLogChart {
    static final int W = 900, H = 560, L = 90, R = 190, T = 50, B = 70;
    static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0x222222)};

    private LogLogChart() {}

    /**
     * Writes {@code dir/name.png} and {@code dir/name.svg}. The axes span the first and last ticks;
     * each series is a list of {x, y} points.
     */
    static void write(Path dir, String name, String title, String xLabel, double[] xTicks, double[] yTicks, String yUnit,
                      Map<String, List<double[]>> series) throws Exception {
        Files.createDirectories(dir);
        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        StringBuilder svg = new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + W + "\" height=\"" + H
                + "\" font-family=\"sans-serif\" font-size=\"13\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        double x0 = Math.log10(xTicks[0]), x1 = Math.log10(xTicks[xTicks.length - 1]);
        double y0 = Math.log10(yTicks[0]), y1 = Math.log10(yTicks[yTicks.length - 1]);
        for (double v : xTicks) {
            int x = px(Math.log10(v), x0, x1);
            line(g, svg, x, T, x, H - B, "#dddddd", 1);
            text(g, svg, fmt(v), x - 14, H - B + 20, "#333333");
        }
        for (double v : yTicks) {
            int y = py(Math.log10(v), y0, y1);
            line(g, svg, L, y, W - R, y, "#dddddd", 1);
            text(g, svg, fmt(v) + " " + yUnit, L - 70, y + 5, "#333333");
        }
        line(g, svg, L, H - B, W - R, H - B, "#333333", 1);
        line(g, svg, L, T, L, H - B, "#333333", 1);
        text(g, svg, xLabel, (W - R + L) / 2 - 50, H - 25, "#000000");
        text(g, svg, title, L, 30, "#000000");
        int i = 0;
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            Color c = COLORS[i % COLORS.length];
            String hex = String.format("#%06x", c.getRGB() & 0xffffff);
            List<double[]> pts = e.getValue();
            StringBuilder poly = new StringBuilder();
            for (int p = 0; p < pts.size(); p++) {
                int x = px(Math.log10(pts.get(p)[0]), x0, x1);
                int y = py(Math.log10(pts.get(p)[1]), y0, y1);
                poly.append(x).append(',').append(y).append(' ');
                g.setColor(c);
                if (p > 0) {
                    g.setStroke(new BasicStroke(2.2f));
                    g.drawLine(px(Math.log10(pts.get(p - 1)[0]), x0, x1), py(Math.log10(pts.get(p - 1)[1]), y0, y1), x, y);
                }
                g.fillOval(x - 3, y - 3, 6, 6);
            }
            svg.append("<polyline fill=\"none\" stroke-width=\"2.2\" stroke=\"").append(hex).append("\" points=\"")
                    .append(poly.toString().strip()).append("\"/>\n");
            int ly = T + 20 + 22 * i;
            line(g, svg, W - R + 15, ly - 4, W - R + 45, ly - 4, hex, 3);
            text(g, svg, e.getKey(), W - R + 52, ly, "#000000");
            i++;
        }
        svg.append("</svg>\n");
        ImageIO.write(img, "png", dir.resolve(name + ".png").toFile());
        Files.writeString(dir.resolve(name + ".svg"), svg);
        System.out.println("wrote " + dir.resolve(name + ".png") + " and .svg");
    }

    static int px(double lx, double x0, double x1) {
        return (int) Math.round(L + (lx - x0) / (x1 - x0) * (W - L - R));
    }

    static int py(double ly, double y0, double y1) {
        return (int) Math.round(H - B - (ly - y0) / (y1 - y0) * (H - T - B));
    }

    static String fmt(double v) {
        if (v < 1) {
            return String.valueOf(v);
        }
        return v >= 1000 ? String.format("%,d", (long) v) : String.valueOf((long) v);
    }

    static void line(Graphics2D g, StringBuilder svg, int xa, int ya, int xb, int yb, String hex, float w) {
        g.setColor(Color.decode(hex));
        g.setStroke(new BasicStroke(w));
        g.drawLine(xa, ya, xb, yb);
        svg.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%.1f\"/>%n",
                xa, ya, xb, yb, hex, w));
    }

    static void text(Graphics2D g, StringBuilder svg, String s, int x, int y, String hex) {
        g.setColor(Color.decode(hex));
        g.drawString(s, x, y);
        svg.append(String.format("<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n", x, y, hex, s));
    }
}
