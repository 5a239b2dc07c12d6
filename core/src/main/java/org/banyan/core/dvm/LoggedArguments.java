package org.banyan.core.dvm;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A command line as the DVM's log shows it: with the values of environment variables left out,
 * since users pass tokens and keys that way ({@code -x API_KEY=...}) and a log outlives the job.
 * Any argument of the form {@code NAME=VALUE}, an option's {@code --opt=NAME=VALUE}, and the value
 * after {@code -genv NAME} or {@code -env NAME} show as {@code NAME=…}.
 */
final class LoggedArguments {
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=.*", Pattern.DOTALL);
    private static final Pattern OPTION_ASSIGNMENT = Pattern.compile("(-{1,2}[A-Za-z-]+=[A-Za-z_][A-Za-z0-9_]*)=.*",
            Pattern.DOTALL);
    private static final Set<String> PAIRS = Set.of("-genv", "-env");
    static final String HIDDEN = "…";

    private LoggedArguments() {}

    static String of(List<String> args) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String shown;
            var m = ASSIGNMENT.matcher(a);
            var o = OPTION_ASSIGNMENT.matcher(a);
            if (i >= 2 && PAIRS.contains(args.get(i - 2))) {
                shown = HIDDEN;
            } else if (m.matches()) {
                shown = m.group(1) + "=" + HIDDEN;
            } else if (o.matches()) {
                shown = o.group(1) + "=" + HIDDEN;
            } else {
                shown = a;
            }
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(shown);
        }
        return sb.toString();
    }
}
