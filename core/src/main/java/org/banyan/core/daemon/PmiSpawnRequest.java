package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.pmi.PmiCommand;

/**
 * What a PMI-2 {@code banyan-spawn} request asks for: one application or several
 * (MPI_Comm_spawn_multiple), and the hosts they may go to (MPI_Info "host"; none: any of the
 * run's). The keys, as {@link PmiNames} lists them: for one application {@code executable},
 * {@code count}, {@code argc} and {@code arg0..}, {@code envc} and {@code env0=NAME=VALUE..},
 * {@code wdir}; for several, {@code appc=N} and the same keys with {@code appI.} in front; and
 * {@code hosts=H1,H2,..} for the whole request.
 *
 * @param apps  the applications, in order (the children's ranks are numbered across them)
 * @param hosts the hosts named, or none
 */
record PmiSpawnRequest(List<AppContext> apps, List<String> hosts) {
    /** At most this many applications, arguments of one, or variables of one. */
    static final int ITEMS_MAX = 4096;

    PmiSpawnRequest {
        apps = List.copyOf(apps);
        hosts = List.copyOf(hosts);
    }

    /**
     * The request {@code cmd} makes.
     *
     * @throws IllegalArgumentException what is wrong with it, in one line
     */
    static PmiSpawnRequest parse(PmiCommand cmd) {
        List<AppContext> apps = new ArrayList<>();
        if (cmd.get("appc") == null) {
            apps.add(app(cmd, ""));
        } else {
            int appc = items(cmd, "appc");
            if (appc < 1) {
                throw new IllegalArgumentException("the spawn request names no program (appc=0)");
            }
            for (int i = 0; i < appc; i++) {
                apps.add(app(cmd, "app" + i + "."));
            }
        }
        List<String> hosts = new ArrayList<>();
        String named = cmd.get("hosts");
        if (named != null) {
            for (String h : named.split(",")) {
                if (!h.isBlank() && !hosts.contains(h.strip())) {
                    hosts.add(h.strip());
                }
            }
        }
        return new PmiSpawnRequest(apps, hosts);
    }

    private static AppContext app(PmiCommand cmd, String p) {
        String executable = cmd.get(p + "executable");
        if (executable == null || executable.isBlank()) {
            throw new IllegalArgumentException("the spawn request names no program" + (p.isEmpty() ? "" : " for " + p + "executable"));
        }
        int count = cmd.getInt(p + "count", 0);
        if (count < 1) {
            throw new IllegalArgumentException("the spawn request asks for " + count + " processes (at least 1)"
                    + (p.isEmpty() ? "" : " of " + executable));
        }
        List<String> args = new ArrayList<>();
        int argc = items(cmd, p + "argc");
        for (int i = 0; i < argc; i++) {
            args.add(item(cmd, p + "arg", i, p + "argc=" + argc));
        }
        Map<String, String> env = new HashMap<>();
        int envc = items(cmd, p + "envc");
        for (int i = 0; i < envc; i++) {
            String e = item(cmd, p + "env", i, p + "envc=" + envc);
            int eq = e.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException(p + "env" + i + " is not NAME=VALUE");
            }
            env.put(e.substring(0, eq), e.substring(eq + 1));
        }
        String wdir = cmd.get(p + "wdir");
        return new AppContext(executable, args, count, env, wdir == null || wdir.isEmpty() ? null : wdir);
    }

    private static int items(PmiCommand cmd, String key) {
        String text = cmd.get(key);
        if (text == null) {
            return 0;
        }
        int n = cmd.getInt(key, -1);
        if (n < 0 || n > ITEMS_MAX) {
            throw new IllegalArgumentException(key + " must be 0 to " + ITEMS_MAX + ": " + text);
        }
        return n;
    }

    private static String item(PmiCommand cmd, String prefix, int i, String count) {
        String v = cmd.get(prefix + i);
        if (v == null) {
            throw new IllegalArgumentException(count + " but no " + prefix + i);
        }
        return v;
    }
}
