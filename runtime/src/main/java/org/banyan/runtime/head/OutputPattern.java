package org.banyan.runtime.head;

/**
 * mpiexec.hydra's output patterns ({@code -prepend-pattern}, {@code -outfile-pattern},
 * {@code -errfile-pattern}): {@code %r} the rank, {@code %h} its host, {@code %p} its host's
 * index among the job's hosts (Hydra's proxy), {@code %g} its job's generation (0 for the job
 * started, then jobs its ranks spawned, as Hydra's process groups). Anything else is literal.
 */
public final class OutputPattern {
    private OutputPattern() {}

    public static String expand(String pattern, int rank, String host, int node, int generation) {
        if (pattern.indexOf('%') < 0) {
            return pattern;
        }
        StringBuilder out = new StringBuilder(pattern.length() + 8);
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 == pattern.length()) {
                out.append(c);
                continue;
            }
            switch (pattern.charAt(++i)) {
                case 'r' -> out.append(rank);
                case 'h' -> out.append(host);
                case 'p' -> out.append(node);
                case 'g' -> out.append(generation);
                default -> out.append('%').append(pattern.charAt(i));
            }
        }
        return out.toString();
    }

    static boolean namesHost(String pattern) {
        return pattern != null && (pattern.contains("%h") || pattern.contains("%p"));
    }
}
