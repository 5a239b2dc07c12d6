package org.banyan.pilot;

import java.util.List;

/**
 * An environment prepared once on a pilot and entered by every task that names it
 * ({@link TaskDescription#namedEnv}), as RADICAL-Pilot's {@code pilot.prepare_env(name, spec)}
 * and {@code named_env}: a Python virtual environment with packages installed in it, or a list
 * of shell commands (module loads, exports) run before each such task's own {@code pre_exec}.
 *
 * @param python for a virtual environment, the interpreter that makes it; null for a shell list
 * @param setup  its packages (for pip), or the shell commands
 */
public record NamedEnv(String python, List<String> setup) {
    public NamedEnv {
        setup = List.copyOf(setup);
        for (String s : setup) {
            if (s.isBlank() || s.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a named environment's setup holds an empty entry or a NUL: '" + s + "'");
            }
        }
    }

    /** A virtual environment of {@code python3} with {@code packages} installed by pip (from pip's own configuration: index, proxy). */
    public static NamedEnv virtualenv(String... packages) {
        return new NamedEnv("python3", List.of(packages));
    }

    /** The same, made by {@code python} (a path or a name on PATH, e.g. {@code python3.11}). */
    public static NamedEnv virtualenv(String python, List<String> packages) {
        return new NamedEnv(python, packages);
    }

    /** Shell commands each task that names it runs first, in its own shell ({@code module load gcc}). */
    public static NamedEnv shell(String... commands) {
        return new NamedEnv(null, List.of(commands));
    }

    boolean isVirtualenv() {
        return python != null;
    }
}
