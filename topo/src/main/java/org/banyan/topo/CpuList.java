package org.banyan.topo;

import java.util.ArrayList;
import java.util.List;

/** Linux's CPU list syntax ({@code 0-3,8,10-11}), as in {@code /sys} and {@code Cpus_allowed_list}. */
public final class CpuList {
    private CpuList() {}

    public static int[] parse(String text) {
        List<Integer> out = new ArrayList<>();
        if (text.isBlank()) {
            return new int[0];
        }
        for (String part : text.strip().split(",")) {
            int dash = part.indexOf('-');
            try {
                if (dash < 0) {
                    out.add(Integer.parseInt(part.strip()));
                } else {
                    int from = Integer.parseInt(part.substring(0, dash).strip());
                    int to = Integer.parseInt(part.substring(dash + 1).strip());
                    if (to < from) {
                        throw new IllegalArgumentException("'" + part + "' is a backward range");
                    }
                    for (int i = from; i <= to; i++) {
                        out.add(i);
                    }
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text.strip() + "' is not a CPU list (e.g. 0-3,8)");
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The shortest list form: runs of consecutive numbers as ranges. */
    public static String format(int[] cpus) {
        int[] s = cpus.clone();
        java.util.Arrays.sort(s);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length; ) {
            int j = i;
            while (j + 1 < s.length && s[j + 1] == s[j] + 1) {
                j++;
            }
            b.append(b.isEmpty() ? "" : ",").append(s[i]);
            if (j > i) {
                b.append('-').append(s[j]);
            }
            i = j + 1;
        }
        return b.toString();
    }
}
