package org.banyan.cli.options;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of one command, each declared once: its names, whether it takes a value, where it
 * appears in the help, what it means, and what it does to the command's arguments. The parser,
 * {@code --help} and README's option table are all read from here, so they cannot drift apart.
 *
 * @param <T> what the options set (the command's argument holder)
 */
public final class OptionTable<T> {
    /** What an option does with its value (null for a flag). */
    public interface Handler<T> {
        void apply(T target, String value) throws UsageException;
    }

    /** What an option of two values does with them (mpiexec.hydra's {@code -genv NAME VALUE}). */
    public interface PairHandler<T> {
        void apply(T target, String first, String second) throws UsageException;
    }

    /**
     * @param names   the names shown in the help and the README, the last followed by the value's name
     * @param aliases other names accepted (mpirun's and mpiexec's spellings), not shown
     * @param value   the value's name in the help ({@code N}, {@code FILE}), or null for a flag
     * @param section the help section it is listed under
     * @param help    what it means; lines break where the help text should
     * @param pair    for an option of two values, what it does with them ({@code handler} is then null)
     */
    public record Option<T>(List<String> names, List<String> aliases, String value, String section, String help,
                     Handler<T> handler, boolean optionalValue, PairHandler<T> pair) {
        /** True when the value is the next argument (or after '='); an optional value only comes after '='. */
        boolean takesValue() {
            return value != null && !optionalValue;
        }

        /** How the help and the README show it: {@code -n, -np N}, {@code --monitor[=all|external]}. */
        public String synopsis() {
            if (optionalValue) {
                return String.join(", ", names) + "[=" + value + "]";
            }
            return String.join(", ", names) + (value == null ? "" : " " + value);
        }
    }

    private final List<Option<T>> options = new ArrayList<>();
    private final Map<String, Option<T>> byName = new LinkedHashMap<>();

    public OptionTable<T> flag(String section, List<String> names, List<String> aliases, String help, Handler<T> handler) {
        return add(new Option<>(names, aliases, null, section, help, handler, false, null));
    }

    /** An option whose value is optional and given only as {@code --name=VALUE}; the handler gets null without one. */
    public OptionTable<T> optional(String section, List<String> names, List<String> aliases, String value, String help,
                            Handler<T> handler) {
        return add(new Option<>(names, aliases, value, section, help, handler, true, null));
    }

    public OptionTable<T> value(String section, List<String> names, List<String> aliases, String value, String help,
                         Handler<T> handler) {
        return add(new Option<>(names, aliases, value, section, help, handler, false, null));
    }

    /** An option followed by two values ({@code values} names both for the help: {@code "NAME VALUE"}). */
    public OptionTable<T> pair(String section, List<String> names, List<String> aliases, String values, String help,
                        PairHandler<T> handler) {
        return add(new Option<>(names, aliases, values, section, help, null, false, handler));
    }

    /** Adds options declared elsewhere (a group several commands share), in order. */
    public OptionTable<T> with(java.util.function.Consumer<OptionTable<T>> group) {
        group.accept(this);
        return this;
    }

    private OptionTable<T> add(Option<T> o) {
        for (String n : o.names()) {
            byName.put(n, o);
        }
        for (String n : o.aliases()) {
            byName.put(n, o);
        }
        options.add(o);
        return this;
    }

    /** The option called {@code name}, or null. */
    public Option<T> find(String name) {
        return byName.get(name);
    }

    public List<Option<T>> all() {
        return List.copyOf(options);
    }

    /** The help's option sections: a heading per section, one option per entry, help aligned. */
    public String help() {
        Map<String, StringBuilder> sections = new LinkedHashMap<>();
        for (Option<T> o : options) {
            StringBuilder b = sections.computeIfAbsent(o.section(), s -> new StringBuilder(s + ":\n"));
            String[] lines = o.help().split("\n");
            String synopsis = "  " + o.synopsis();
            b.append(synopsis.length() < HELP_COLUMN - 1
                    ? String.format("%-" + HELP_COLUMN + "s%s%n", synopsis, lines[0])
                    : synopsis + "\n" + " ".repeat(HELP_COLUMN) + lines[0] + "\n");
            for (int i = 1; i < lines.length; i++) {
                b.append(" ".repeat(HELP_COLUMN)).append(lines[i]).append('\n');
            }
        }
        return String.join("\n", sections.values().stream().map(StringBuilder::toString).toList());
    }

    /** README's table: a header row, then one row per option with its help on one line. */
    public String markdownTable() {
        StringBuilder b = new StringBuilder("| option | meaning |\n|---|---|\n");
        for (Option<T> o : options) {
            List<String> shown = new ArrayList<>();
            for (int i = 0; i < o.names().size(); i++) {
                String n = o.names().get(i);
                String value = o.value() == null ? "" : o.optionalValue() ? "[=" + o.value() + "]" : " " + o.value();
                shown.add("`" + n + (i == o.names().size() - 1 ? value : "") + "`");
            }
            b.append("| ").append(String.join(", ", shown).replace("|", "\\|")).append(" | ")
                    .append(o.help().replace("\n", " ").replace("|", "\\|")).append(" |\n");
        }
        return b.toString();
    }

    private static final int HELP_COLUMN = 26;
}
