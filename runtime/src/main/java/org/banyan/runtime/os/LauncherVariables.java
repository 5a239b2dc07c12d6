package org.banyan.runtime.os;

import java.util.HashMap;
import java.util.Map;

/**
 * Variables the {@code banyan} command sets for its own JVMs, which ranks and tasks must not
 * inherit: a rank's environment is the user's, as under mpirun. The command names what it added
 * in {@value #NAMES} (today {@code _JAVA_SR_SIGNUM}, HotSpot's thread-suspension signal, which
 * otherwise changed how a Java rank took SIGUSR2); a variable the user had set already is not
 * named there, so it reaches the ranks unchanged. A named variable the user had set with another
 * value ({@code LC_ALL}, which the command sets to a UTF-8 locale for its JVMs) is kept in
 * {@code BANYAN_USER_NAME} and given back. {@link Subreaper#HELPER} goes too: a daemon that a
 * head started through the JDK inherits it, and its ranks are not the head's helpers.
 */
public final class LauncherVariables {
    /** The variable that lists, space-separated, the ones the command added. */
    public static final String NAMES = "BANYAN_LAUNCHER_ENV";
    /** Prefix of the variable that keeps the user's own value of one the command set. */
    public static final String SAVED = "BANYAN_USER_";

    private LauncherVariables() {}

    /** {@code env} without the launcher's variables (and without the list naming them). */
    public static Map<String, String> removedFrom(Map<String, String> env) {
        Map<String, String> out = new HashMap<>(env);
        removeIn(out);
        return out;
    }

    /** Removes the launcher's variables from {@code env} in place (a ProcessBuilder's environment). */
    public static void removeIn(Map<String, String> env) {
        env.remove(Subreaper.HELPER);
        String names = env.remove(NAMES);
        if (names != null) {
            for (String name : names.trim().split("\\s+")) {
                env.remove(name);
                String users = env.remove(SAVED + name);
                if (users != null) {
                    env.put(name, users);
                }
            }
        }
    }
}
