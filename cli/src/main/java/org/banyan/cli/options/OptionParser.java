package org.banyan.cli.options;

import java.util.List;

/** Parses a command made of options only ({@code --name VALUE}, {@code --name=VALUE}, flags) against its table. */
public final class OptionParser {
    private OptionParser() {}

    public static <T> void parse(OptionTable<T> table, T target, List<String> args, String helpHint) throws UsageException {
        parseLeading(table, target, args, helpHint, false);
    }

    /**
     * Parses the options of {@code table} at the start of {@code args} and returns where the first
     * argument that is not one of them is (for a command whose other arguments go to another parser).
     */
    public static <T> int parseLeading(OptionTable<T> table, T target, List<String> args) throws UsageException {
        return parseLeading(table, target, args, null, true);
    }

    private static <T> int parseLeading(OptionTable<T> table, T target, List<String> args, String helpHint,
                                        boolean stopAtUnknown) throws UsageException {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a;
            String inline = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                inline = a.substring(eq + 1);
            }
            OptionTable.Option<T> option = table.find(name);
            if (option == null && stopAtUnknown) {
                return i;
            }
            if (option == null) {
                throw new UsageException((a.startsWith("-") ? "unknown option '" : "unexpected argument '") + a
                        + "' (see " + helpHint + ")");
            }
            i = apply(option, target, args, i, name, inline);
        }
        return args.size();
    }

    /**
     * Applies {@code option}, found at {@code args[i]} as {@code name} (with {@code inline} after
     * '=' or null), to {@code target}; returns the index of the last argument it took.
     */
    public static <T> int apply(OptionTable.Option<T> option, T target, List<String> args, int i, String name, String inline)
            throws UsageException {
        try {
            return applyAsGiven(option, target, args, i, name, inline);
        } catch (java.nio.file.InvalidPathException e) {
            throw notAPath(name, e);
        }
    }

    /**
     * A path option given bytes that are not UTF-8, which Java's files cannot name: programs,
     * arguments, variables, hostfiles, rankfiles, appfiles and task files travel as bytes; other paths do not.
     */
    public static UsageException notAPath(String option, java.nio.file.InvalidPathException e) {
        return new UsageException((option != null ? "option " + option + ": " : "") + "'" + e.getInput()
                + "' holds bytes that are not UTF-8; Banyan takes such names for programs, their arguments and variables, "
                + "hostfiles, rankfiles, appfiles and task files, not for this path");
    }

    private static <T> int applyAsGiven(OptionTable.Option<T> option, T target, List<String> args, int i, String name,
                                        String inline) throws UsageException {
        if (option.pair() != null) {
            if (inline != null) {
                throw new UsageException("option " + name + " takes two values: " + name + " " + option.value());
            }
            if (i + 2 >= args.size()) {
                throw new UsageException("option " + name + " needs two values: " + name + " " + option.value());
            }
            option.pair().apply(target, args.get(i + 1), args.get(i + 2));
            return i + 2;
        }
        if (!option.takesValue()) {
            if (inline != null && !option.optionalValue()) {
                throw new UsageException("option " + name + " takes no value");
            }
            option.handler().apply(target, inline);
            return i;
        }
        option.handler().apply(target, value(args, i, inline, name));
        return inline == null ? i + 1 : i;
    }

    /** The value of option {@code name} at {@code args[i]}: {@code inline} (from --name=VALUE), or the next argument. */
    public static String value(List<String> args, int i, String inline, String name) throws UsageException {
        String value = inline != null ? inline : i + 1 < args.size() ? args.get(i + 1) : null;
        if (value == null) {
            throw new UsageException("option " + name + " needs a value");
        }
        if (value.isEmpty()) {
            // An unset shell variable ('--session $DIR'): a path would become the current
            // directory (a session made in it, a DVM's URI file sought there).
            throw new UsageException("option " + name + " needs a value, not an empty one");
        }
        return value;
    }
}
