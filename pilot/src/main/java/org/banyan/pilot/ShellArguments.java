package org.banyan.pilot;

import java.util.List;

/** A task's command line as RADICAL-Pilot's launch script writes it, for a task that asks for a shell. */
final class ShellArguments {
    private ShellArguments() {}

    /**
     * {@code executable} as given (a shell word), then each argument: one that starts and ends
     * with a single quote as it is, any other in double quotes with the double quotes in it
     * escaped. So {@code $VAR} expands in the second kind and not in the first, and no argument
     * is split or globbed.
     */
    static String asRadicalPilot(String executable, List<String> arguments) {
        StringBuilder line = new StringBuilder(executable);
        for (String a : arguments) {
            line.append(' ');
            if (a.length() >= 2 && a.charAt(0) == '\'' && a.charAt(a.length() - 1) == '\'') {
                line.append(a);
            } else {
                line.append('"').append(a.replace("\"", "\\\"")).append('"');
            }
        }
        return line.toString();
    }
}
