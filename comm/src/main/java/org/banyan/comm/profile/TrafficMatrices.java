package org.banyan.comm.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The communication matrices of a monitored run, read from its ranks' {@code .prof} files
 * (Banyan's or Open MPI's): per category, bytes and messages from each rank (row) to each rank
 * (column). The categories are profile2mat's: everything, external and internal point-to-point,
 * one-sided, and the collectives' logical traffic.
 */
public final class TrafficMatrices {
    /** profile2mat's categories, with the line kinds each gathers. */
    public enum Category {
        ALL("all", "IESRC"), EXTERNAL("external", "E"), INTERNAL("internal", "I"), OSC("osc", "SR"), COLL("coll", "C");

        public final String suffix;
        final String kinds;

        Category(String suffix, String kinds) {
            this.suffix = suffix;
            this.kinds = kinds;
        }
    }

    private static final Pattern LINE = Pattern.compile("^([IESRC])\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\D+(\\d+)");

    private final int size;
    private final Map<Category, long[][]> bytes = new EnumMap<>(Category.class);
    private final Map<Category, long[][]> messages = new EnumMap<>(Category.class);

    private TrafficMatrices(int size) {
        this.size = size;
        for (Category c : Category.values()) {
            bytes.put(c, new long[size][size]);
            messages.put(c, new long[size][size]);
        }
    }

    /** Reads every {@code *.prof} file of {@code dir} (or the one file {@code dir} names). */
    public static TrafficMatrices read(Path dirOrFile) {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(dirOrFile)) {
            try (Stream<Path> s = Files.list(dirOrFile)) {
                s.filter(p -> p.getFileName().toString().endsWith(".prof")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + dirOrFile + ": " + e.getMessage(), e);
            }
        } else if (Files.isRegularFile(dirOrFile)) {
            files.add(dirOrFile);
        } else {
            throw new IllegalArgumentException(dirOrFile + " is neither a directory of .prof files nor a .prof file");
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(dirOrFile + " holds no .prof file (run with banyan run --monitor-out "
                    + dirOrFile + ")");
        }
        long bound = Runtime.getRuntime().maxMemory() / 4;
        long total = 0;
        List<String> lines = new ArrayList<>();
        for (Path f : files) {
            try {
                total += Files.size(f);
                if (total > bound) { // held whole: /dev/zero or a wrong file was read until memory ran out
                    throw new IllegalArgumentException("the profiles take over " + (bound >> 20)
                            + " MiB (a quarter of this command's memory) from " + f + " on: is it a monitoring profile?");
                }
                lines.addAll(Files.readAllLines(f));
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new IllegalArgumentException(f + " is not a monitoring profile (not text)");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + f + ": " + e.getMessage(), e);
            }
        }
        return parse(lines);
    }

    /**
     * Ranks up to this many can have their matrices: 80 bytes a cell (five categories, bytes and
     * messages) within half of this command's memory. A profile line naming rank 100,000 asked for
     * 800 GB.
     */
    static int maxRanks() {
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.sqrt(Runtime.getRuntime().maxMemory() / 2.0 / 80));
    }

    /** The matrices of these profile lines (other lines are ignored, as profile2mat ignores them). */
    public static TrafficMatrices parse(List<String> lines) {
        long max = -1;
        int most = maxRanks();
        for (String l : lines) {
            Matcher m = LINE.matcher(l);
            if (m.find()) {
                long rank = Math.max(rank(m.group(2)), rank(m.group(3)));
                if (rank >= most) {
                    throw new IllegalArgumentException("a profile names rank " + m.group(rank == rank(m.group(2)) ? 2 : 3)
                            + ": the matrices of more than " + most + " ranks do not fit in half of this command's memory");
                }
                max = Math.max(max, rank);
            }
        }
        TrafficMatrices t = new TrafficMatrices((int) max + 1);
        for (String l : lines) {
            Matcher m = LINE.matcher(l);
            if (m.find()) {
                char kind = m.group(1).charAt(0);
                int from = Integer.parseInt(m.group(2));
                int to = Integer.parseInt(m.group(3));
                long b = Long.parseLong(m.group(4));
                long n = Long.parseLong(m.group(5));
                for (Category c : Category.values()) {
                    if (c.kinds.indexOf(kind) >= 0) {
                        t.bytes.get(c)[from][to] += b;
                        t.messages.get(c)[from][to] += n;
                    }
                }
            }
        }
        return t;
    }

    /** A rank's number, or Long.MAX_VALUE for one too long for a long (both beyond any matrix). */
    private static long rank(String digits) {
        return digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
    }

    public int size() {
        return size;
    }

    /** Bytes from row to column. */
    public long[][] bytes(Category c) {
        return bytes.get(c);
    }

    /** Messages from row to column. */
    public long[][] messages(Category c) {
        return messages.get(c);
    }

    /** Comma-separated, one row per sender, a header row and column of ranks. */
    public static String csv(long[][] m) {
        StringBuilder b = new StringBuilder("from\\to");
        for (int j = 0; j < m.length; j++) {
            b.append(',').append(j);
        }
        b.append('\n');
        for (int i = 0; i < m.length; i++) {
            b.append(i);
            for (long v : m[i]) {
                b.append(',').append(v);
            }
            b.append('\n');
        }
        return b.toString();
    }

    /**
     * profile2mat's {@code .mat} layout: the symmetric matrix (m_ij + m_ji) / 2, each value with
     * no decimals (rounded half to even, as C's printf) followed by a space, one row a line.
     */
    public static String mat(long[][] m) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < m.length; j++) {
                b.append((long) Math.rint((m[i][j] + m[j][i]) / 2.0)).append(' ');
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** profile2mat's {@code _avg_} matrix: symmetric bytes over symmetric messages, 0 where none. */
    public static String avgMat(long[][] bytes, long[][] messages) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < bytes.length; i++) {
            for (int j = 0; j < bytes.length; j++) {
                double s = (bytes[i][j] + bytes[j][i]) / 2.0;
                double n = (messages[i][j] + messages[j][i]) / 2.0;
                b.append((long) Math.rint(n == 0 ? 0 : s / n)).append(' ');
            }
            b.append('\n');
        }
        return b.toString();
    }
}
