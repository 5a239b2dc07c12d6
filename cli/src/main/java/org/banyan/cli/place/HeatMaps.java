package org.banyan.cli.place;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * A communication matrix written as {@code BASE.png} and {@code BASE.svg}: the same
 * {@link HeatMapDrawing} on a bitmap and as vector text.
 */
final class HeatMaps {
    private HeatMaps() {}

    static void write(long[][] m, String title, Path base) throws IOException {
        HeatMapDrawing d = new HeatMapDrawing(m);
        BufferedImage image = new BufferedImage(d.width(), d.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            d.draw(new Bitmap(g), title);
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", base.resolveSibling(base.getFileName() + ".png").toFile());
        Svg svg = new Svg(d.width(), d.height());
        d.draw(svg, title);
        Files.writeString(base.resolveSibling(base.getFileName() + ".svg"), svg.end(), StandardCharsets.UTF_8);
    }

    /** Java2D, for the PNG. */
    private record Bitmap(Graphics2D g) implements HeatMapDrawing.Canvas {
        @Override
        public void rect(int x, int y, int w, int h, Color fill) {
            g.setColor(fill);
            g.fillRect(x, y, w, h);
        }

        @Override
        public void text(int x, int y, String s, int size, int anchor, Color colour, boolean vertical) {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, size));
            g.setColor(colour);
            int w = g.getFontMetrics().stringWidth(s);
            int dx = anchor < 0 ? 0 : anchor == 0 ? -w / 2 : -w;
            if (!vertical) {
                g.drawString(s, x + dx, y);
                return;
            }
            AffineTransform before = g.getTransform();
            g.rotate(-Math.PI / 2, x, y);
            g.drawString(s, x + dx, y);
            g.setTransform(before);
        }
    }

    /** SVG text, for the vector copy. */
    static final class Svg implements HeatMapDrawing.Canvas {
        private final StringBuilder b = new StringBuilder();

        Svg(int width, int height) {
            b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                    .append("\" font-family=\"sans-serif\" shape-rendering=\"crispEdges\">\n");
        }

        @Override
        public void rect(int x, int y, int w, int h, Color fill) {
            b.append("<rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"").append(w).append("\" height=\"").append(h)
                    .append("\" fill=\"").append(hex(fill)).append("\"/>\n");
        }

        @Override
        public void text(int x, int y, String s, int size, int anchor, Color colour, boolean vertical) {
            b.append("<text x=\"").append(x).append("\" y=\"").append(y).append("\" font-size=\"").append(size)
                    .append("\" fill=\"").append(hex(colour)).append("\" text-anchor=\"")
                    .append(anchor < 0 ? "start" : anchor == 0 ? "middle" : "end").append('"');
            if (vertical) {
                b.append(" transform=\"rotate(-90 ").append(x).append(' ').append(y).append(")\"");
            }
            b.append('>').append(s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")).append("</text>\n");
        }

        String end() {
            return b.append("</svg>\n").toString();
        }

        private static String hex(Color c) {
            return String.format("#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
        }
    }
}
