package org.banyan.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads hosts from {@code --host a,b:4} and from hostfiles in Open MPI
 * ({@code host slots=N [max_slots=M]}) or Hydra ({@code host:N}) syntax; {@code #} starts a comment.
 */
public final class HostListParser {
    private HostListParser() {}

    /** {@code --host}: comma-separated {@code name[:slots]}; a name without slots counts one slot. */
    public static List<HostEntry> parseHostOption(String value) throws UsageException {
        List<HostEntry> out = new ArrayList<>();
        for (String item : value.split(",", -1)) {
            String s = item.strip();
            if (s.isEmpty()) {
                throw new UsageException("--host '" + value + "': empty host name in the list");
            }
            out.add(nameAndSlots(s, "--host", 1));
        }
        return out;
    }

    public static List<HostEntry> parseHostfile(Path file) throws UsageException {
        List<String> lines = InputFiles.lines(file, "hostfile");
        List<HostEntry> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String origin = file + ":" + (i + 1);
            String line = lines.get(i);
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            // Open MPI reads 'slots = 4' as 'slots=4'
            String[] words = line.replaceAll("\\s*=\\s*", "=").split("\\s+");
            HostEntry entry = nameAndSlots(words[0], origin, 0);
            int slots = entry.slots();
            for (int w = 1; w < words.length; w++) {
                String word = words[w];
                int eq = word.indexOf('=');
                String key = eq < 0 ? word : word.substring(0, eq);
                switch (key) {
                    case "slots", "slot", "cpu", "cpus", "count" -> {
                        if (eq < 0) {
                            throw new UsageException("hostfile " + origin + ": '" + word + "' needs a value, as in slots=4");
                        }
                        slots = positive(word.substring(eq + 1), "hostfile " + origin + ": slots");
                    }
                    case "max_slots", "max-slots", "slots_max", "slots-max" -> {
                        if (eq < 0) {
                            throw new UsageException("hostfile " + origin + ": '" + word + "' needs a value, as in max_slots=8");
                        }
                        positive(word.substring(eq + 1), "hostfile " + origin + ": max_slots");
                    }
                    default -> throw new UsageException("hostfile " + origin + ": cannot read '" + word
                            + "' (expected slots=N or max_slots=N after the host name, or HOST:N)");
                }
            }
            out.add(new HostEntry(entry.name(), slots, origin));
        }
        if (out.isEmpty()) {
            throw new UsageException("hostfile '" + file + "' lists no hosts");
        }
        return out;
    }

    private static HostEntry nameAndSlots(String text, String origin, int defaultSlots) throws UsageException {
        int colon = text.lastIndexOf(':');
        // An IPv6 literal has several colons; only NAME:N with a single colon carries slots.
        if (colon < 0 || text.indexOf(':') != colon) {
            checkName(text, origin);
            return new HostEntry(text, defaultSlots, origin);
        }
        String name = text.substring(0, colon);
        checkName(name, origin);
        String where = origin.equals("--host") ? "--host '" + text + "'" : "hostfile " + origin;
        return new HostEntry(name, positive(text.substring(colon + 1), where + ": slots"), origin);
    }

    private static void checkName(String name, String origin) throws UsageException {
        String where = origin.equals("--host") ? "--host" : "hostfile " + origin;
        if (name.isEmpty()) {
            throw new UsageException(where + ": empty host name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '_' || c == ':')) {
                throw new UsageException(where + ": '" + name + "' is not a valid host name");
            }
        }
    }

    public static int positive(String text, String what) throws UsageException {
        return atLeast(text, what, 1);
    }

    /** {@code text} as an integer of at least {@code min} (1 or 0), or one line saying what is wrong with it. */
    public static int atLeast(String text, String what, int min) throws UsageException {
        try {
            int v = Integer.parseInt(text.strip());
            if (v >= min) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(what + (min > 0 ? " must be a positive integer" : " must be a whole number, 0 or more")
                + ", got '" + text + "'");
    }
}
