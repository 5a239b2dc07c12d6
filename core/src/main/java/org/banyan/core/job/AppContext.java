package org.banyan.core.job;

import java.util.List;
import java.util.Map;

/**
 * One application of a (possibly MPMD) job: {@code -n 3 ./b arg} is one context.
 *
 * @param executable the program as the user gave it (resolved by the daemon on its host)
 * @param args       arguments after the program
 * @param count      number of ranks running this context; 0 only in a request to a DVM, where it
 *                   means one per free slot (a job's contexts always have a count)
 * @param env        variables exported to these ranks ({@code -x}), on top of the daemon's environment
 * @param workdir    working directory, or {@code null} for the daemon's current directory
 */
public record AppContext(String executable, List<String> args, int count, Map<String, String> env, String workdir) {
    public AppContext {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
    }
}
