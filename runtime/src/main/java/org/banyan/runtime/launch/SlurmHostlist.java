package org.banyan.runtime.launch;

import java.util.ArrayList;
import java.util.List;

/** Slurm's hostlist syntax, expanded: {@code a[1-3,07],b} is a1 a2 a3 a07 b. */
public final class SlurmHostlist {
    private SlurmHostlist() {}

    /** @throws IllegalArgumentException naming what cannot be read */
    public static List<String> expand(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String item = list.substring(start, i).strip();
                if (!item.isEmpty()) {
                    expandOne(item, out);
                }
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("'" + list + "': unbalanced brackets");
        }
        return out;
    }

    private static void expandOne(String item, List<String> out) {
        int open = item.indexOf('[');
        if (open < 0) {
            out.add(item);
            return;
        }
        int close = item.indexOf(']', open);
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        for (String range : item.substring(open + 1, close).split(",")) {
            String[] ends = range.split("-", 2);
            try {
                int lo = Integer.parseInt(ends[0]);
                int hi = ends.length == 2 ? Integer.parseInt(ends[1]) : lo;
                int width = ends[0].length();
                for (int n = lo; n <= hi; n++) {
                    String num = Integer.toString(n);
                    out.add(prefix + "0".repeat(Math.max(0, width - num.length())) + num + suffix);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cannot read range '" + range + "'");
            }
        }
    }
}
