package org.banyan.topo;

import java.util.ArrayList;
import java.util.List;

/**
 * The two one-line topology descriptions.
 *
 * <pre>
 *   synthetic:  switch:4 host:8 socket:2 core:8      (name:arity per level from the root; a
 *                                                       cost may follow as name:arity@cost)
 *   tleaf:      tleaf 4 4 10 8 5 2 2 8 1               (TreeMatch's: the number of levels n,
 *                                                       then arity and cost of each level)
 * </pre>
 */
public final class TopologyFormats {
    private TopologyFormats() {}

    /** A synthetic description; costs default to hop counts. */
    public static Topology synthetic(String text) {
        String[] parts = text.trim().split("\\s+");
        if (text.isBlank()) {
            throw new IllegalArgumentException("an empty topology description (expected e.g. 'switch:4 host:8 socket:2 core:8')");
        }
        List<String> names = new ArrayList<>();
        int[] arities = new int[parts.length];
        double[] costs = new double[parts.length];
        boolean anyCost = false;
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            int colon = p.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("'" + p + "' is not NAME:ARITY (e.g. core:8)");
            }
            names.add(p.substring(0, colon));
            String rest = p.substring(colon + 1);
            int at = rest.indexOf('@');
            try {
                arities[i] = Integer.parseInt(at < 0 ? rest : rest.substring(0, at));
                costs[i] = at < 0 ? 0 : Double.parseDouble(rest.substring(at + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + p + "' is not NAME:ARITY or NAME:ARITY@COST with numbers");
            }
            anyCost |= at >= 0;
        }
        return Topology.ofArities(names, arities, anyCost ? costs : null);
    }

    /** TreeMatch's tleaf line: {@code tleaf n a1 s1 ... an sn}. */
    public static Topology tleaf(String text) {
        String[] w = text.trim().split("\\s+");
        if (w.length < 2 || !w[0].equals("tleaf")) {
            throw new IllegalArgumentException("a tleaf file starts with 'tleaf N' (got '" + text.strip() + "')");
        }
        int n;
        try {
            n = Integer.parseInt(w[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("tleaf: '" + w[1] + "' is not a number of levels");
        }
        if (w.length != 2 + 2 * n) {
            throw new IllegalArgumentException("tleaf " + n + " needs " + 2 * n + " numbers (arity and cost per level), got "
                    + (w.length - 2));
        }
        List<String> names = new ArrayList<>();
        int[] arities = new int[n];
        double[] costs = new double[n];
        for (int i = 0; i < n; i++) {
            names.add("level" + (i + 1));
            try {
                arities[i] = Integer.parseInt(w[2 + 2 * i]);
                costs[i] = Double.parseDouble(w[3 + 2 * i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("tleaf: level " + (i + 1) + " has '" + w[2 + 2 * i] + " " + w[3 + 2 * i]
                        + "', not an arity and a cost");
            }
        }
        return Topology.ofArities(names, arities, costs);
    }
}
