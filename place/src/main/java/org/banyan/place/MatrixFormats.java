package org.banyan.place;

import java.util.ArrayList;
import java.util.List;

/**
 * The text forms of a communication matrix {@code banyan place} reads (a directory of
 * {@code .prof} files is read by the caller, through banyan-comm):
 *
 * <pre>
 *   CSV    banyan monitor's matrix_*.csv: a header row "from\to,0,1,..." and a first column of
 *          ranks, or bare rows of comma-separated numbers; row sends to column
 *   .mat   profile2mat's and TreeMatch's: rows of numbers separated by blanks
 * </pre>
 *
 * Either way the matrix is square, values are non-negative, and only w(i,j) + w(j,i) matters.
 */
public final class MatrixFormats {
    private MatrixFormats() {}

    /** A CSV or .mat text, told apart by its commas; {@code origin} names it in messages. */
    public static CommMatrix parse(String text, String origin) {
        return text.contains(",") ? csv(text, origin) : mat(text, origin);
    }

    public static CommMatrix csv(String text, String origin) {
        List<String[]> rows = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                rows.add(line.strip().split("\\s*,\\s*"));
            }
        }
        boolean header = !rows.isEmpty() && !isNumber(rows.getFirst()[0]);
        if (header) {
            rows.removeFirst();
        }
        List<double[]> values = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            int skip = header ? 1 : 0;
            double[] v = new double[r.length - skip];
            for (int j = skip; j < r.length; j++) {
                v[j - skip] = number(r[j], origin, i + 1 + (header ? 1 : 0));
            }
            values.add(v);
        }
        return square(values, origin);
    }

    public static CommMatrix mat(String text, String origin) {
        List<double[]> values = new ArrayList<>();
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String[] w = line.strip().split("\\s+");
            double[] v = new double[w.length];
            for (int j = 0; j < w.length; j++) {
                v[j] = number(w[j], origin, lineNo);
            }
            values.add(v);
        }
        return square(values, origin);
    }

    private static CommMatrix square(List<double[]> rows, String origin) {
        int n = rows.size();
        if (n == 0) {
            throw new IllegalArgumentException(origin + " holds no matrix");
        }
        CommMatrix.Builder b = new CommMatrix.Builder(n);
        for (int i = 0; i < n; i++) {
            double[] r = rows.get(i);
            if (r.length != n) {
                throw new IllegalArgumentException(origin + ": row " + i + " has " + r.length + " values; a matrix of " + n
                        + " rows needs " + n);
            }
            for (int j = 0; j < n; j++) {
                if (r[j] < 0) {
                    throw new IllegalArgumentException(origin + ": row " + i + " has a negative value");
                }
                b.add(i, j, r[j]);
            }
        }
        return b.build();
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static double number(String s, String origin, int line) {
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        if (!Double.isFinite(v)) { // NaN, Infinity and 1e400 parse, and would make every cost NaN or infinite
            throw new IllegalArgumentException(origin + " line " + line + ": '" + s + "' is not a number");
        }
        return v;
    }
}
