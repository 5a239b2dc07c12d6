package org.banyan.comm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.banyan.client.Banyan;

/**
 * The MPI_Info keys of MPI_Comm_spawn that banyan-comm reads (at the spawning root): the
 * standard's "host", "wdir", "path" and "soft", and Open MPI's "env". Any other key is refused
 * rather than ignored, so that a request is never carried out other than as written.
 *
 * @param app the application to start, the largest count first
 * @param hosts where (none: where the run places it)
 * @param counts the counts to try, largest first (one unless "soft" gave several)
 */
record SpawnInfo(Banyan.SpawnApp app, List<String> hosts, int[] counts) {
    static final List<String> KEYS = List.of("host", "wdir", "path", "soft", "env");
    /** Values of a "soft" list at most (a range like 1:1000000000 would otherwise be spelt out). */
    static final int MAX_SOFT = 4_096;

    /**
     * Reads {@code info} for a spawn of at most {@code maxprocs} processes of {@code executable}.
     *
     * @throws IllegalArgumentException naming the key and what is wrong with it
     */
    static SpawnInfo parse(String executable, List<String> args, int maxprocs, Map<String, String> info) {
        Map<String, String> given = info == null ? Map.of() : info;
        for (String key : given.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("MPI_Info key '" + key + "' is not one banyan-comm's spawn reads ("
                        + String.join(", ", KEYS) + ")");
            }
        }
        List<String> hosts = given.containsKey("host") ? hosts(given.get("host")) : List.of();
        String wdir = given.get("wdir");
        if (wdir != null && wdir.isBlank()) {
            throw new IllegalArgumentException("MPI_Info wdir is empty");
        }
        String program = given.containsKey("path") ? onPath(executable, given.get("path")) : executable;
        Map<String, String> env = given.containsKey("env") ? env(given.get("env")) : Map.of();
        int[] counts = given.containsKey("soft") ? soft(given.get("soft"), maxprocs) : new int[] {maxprocs};
        return new SpawnInfo(new Banyan.SpawnApp(program, args == null ? List.of() : args, counts[0], env, wdir), hosts, counts);
    }

    private static List<String> hosts(String value) {
        List<String> hosts = Arrays.stream(value.split(",")).map(String::strip).filter(h -> !h.isEmpty()).toList();
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("MPI_Info host names no host");
        }
        return hosts;
    }

    /** A bare program name looked up in the directories of {@code path} (colon-separated), as a shell would. */
    static String onPath(String executable, String path) {
        if (executable.contains("/")) {
            return executable;
        }
        for (String dir : path.split(":")) {
            if (!dir.isBlank()) {
                Path p = Path.of(dir.strip(), executable);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p.toAbsolutePath().toString();
                }
            }
        }
        throw new IllegalArgumentException("MPI_Info path: no executable " + executable + " in " + path);
    }

    /** Open MPI's "env": lines of NAME=value. */
    static Map<String, String> env(String value) {
        Map<String, String> env = new HashMap<>();
        for (String line : value.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("MPI_Info env: '" + line + "' is not NAME=value");
            }
            env.put(line.substring(0, eq).strip(), line.substring(eq + 1));
        }
        return env;
    }

    /**
     * MPI's "soft": comma-separated items {@code a}, {@code a:b} (a to b) or {@code a:b:c} (a to
     * b by c), each from 1 to {@code maxprocs}; the counts, largest first.
     */
    static int[] soft(String value, int maxprocs) {
        TreeSet<Integer> counts = new TreeSet<>();
        for (String item : value.split(",")) {
            String[] f = item.strip().split(":", -1);
            if (f.length > 3 || f[0].isEmpty()) {
                throw new IllegalArgumentException("MPI_Info soft: '" + item.strip() + "' is not a, a:b or a:b:c");
            }
            int a = number(f[0], item);
            int b = f.length > 1 ? number(f[1], item) : a;
            int c = f.length > 2 ? number(f[2], item) : 1;
            if (a < 1 || b < a || c < 1 || b > maxprocs) {
                throw new IllegalArgumentException("MPI_Info soft: '" + item.strip() + "' is not within 1 to the " + maxprocs
                        + " processes asked for, rising");
            }
            for (long v = a; v <= b; v += c) {
                counts.add((int) v);
                if (counts.size() > MAX_SOFT) {
                    throw new IllegalArgumentException("MPI_Info soft: more than " + MAX_SOFT + " counts");
                }
            }
        }
        List<Integer> desc = new ArrayList<>(counts.descendingSet());
        return desc.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int number(String text, String item) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("MPI_Info soft: '" + item.strip() + "' is not a, a:b or a:b:c");
        }
    }
}
