package org.banyan.core.pilot;

import java.util.List;
import java.util.Map;

/**
 * What a daemon needs to start one task: the command (pre- and post-exec already folded into it
 * by the agent), its environment, and its sandbox, where it starts and where its stdout and
 * stderr go as files.
 *
 * @param stdout file for the task's stdout (relative paths are in the sandbox)
 * @param stderr file for its stderr; its last lines come back when the task fails
 * @param stdin  file its stdin reads, or null for none ({@code /dev/null})
 * @param after  0, or a task of this daemon whose cores this one takes: it starts the moment that
 *               one's process ends (at once if it has ended already), without waiting for the agent
 */
public record TaskSpec(int taskId, String executable, List<String> args, Map<String, String> env, String sandbox,
                       String stdout, String stderr, String stdin, int after) {
    public TaskSpec {
        args = List.copyOf(args);
        env = Map.copyOf(env);
    }
}
