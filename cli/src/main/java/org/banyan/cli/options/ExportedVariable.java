package org.banyan.cli.options;

import java.util.Map;

/** A {@code -x VAR[=VALUE]} of {@code banyan run} and {@code banyan submit}: a variable the ranks or tasks get. */
public record ExportedVariable(String name, String value) {
    /**
     * {@code spec} as {@code VAR=VALUE}, or {@code VAR} with its value in {@code environment}
     * (the command's own).
     */
    public static ExportedVariable parse(String spec, Map<String, String> environment) throws UsageException {
        int eq = spec.indexOf('=');
        String name = eq < 0 ? spec : spec.substring(0, eq);
        if (!isName(name)) {
            throw new UsageException("-x '" + spec + "': '" + name + "' is not a valid environment variable name");
        }
        if (eq >= 0) {
            return new ExportedVariable(name, spec.substring(eq + 1));
        }
        String v = environment.get(name);
        if (v == null) {
            throw new UsageException("-x " + name + ": " + name + " is not set in the environment (use -x " + name + "=VALUE)");
        }
        return new ExportedVariable(name, v);
    }

    /** Whether {@code name} can name an environment variable (as a shell would take it). */
    public static boolean isName(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*");
    }

    /** As given on a command line that no longer has this environment: {@code VAR=VALUE}. */
    String spec() {
        return name + "=" + value;
    }
}
