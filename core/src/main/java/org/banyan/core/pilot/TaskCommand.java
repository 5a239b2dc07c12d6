package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.List;

/**
 * The command a task's processes run: its executable, or, with pre-exec or post-exec commands,
 * {@code /bin/sh} running those around it (each pre-exec must succeed; the executable's status
 * is the task's, whatever post-exec does). Every process of the task runs it, each rank of an
 * MPI task included, as RADICAL-Pilot runs pre-exec in every rank's launch script.
 *
 * <p>A pre-exec or post-exec command that fails says so as the last line of the task's stderr
 * ({@value #PRE_FAILED} or {@value #POST_FAILED}, its status and the command), so that a FAILED
 * task's detail, which ends with its stderr's last lines, names the phase that failed and not
 * only a status that the executable could have given as well.
 */
public record TaskCommand(String executable, List<String> args) {
    public static final String PRE_FAILED = "pre_exec failed";
    public static final String POST_FAILED = "post_exec failed";

    public static TaskCommand of(TaskRequest r) {
        if (r.preExec().isEmpty() && r.postExec().isEmpty()) {
            return new TaskCommand(r.executable(), r.args());
        }
        StringBuilder script = new StringBuilder();
        for (String pre : r.preExec()) {
            // in braces of its own line: a command that ends in a comment would comment the check out
            script.append("{\n").append(pre).append("\n} || { rc=$?; echo \"").append(PRE_FAILED).append(" (exit $rc): \"")
                    .append(quoted(pre)).append(" >&2; exit $rc; }\n");
        }
        script.append("\"$@\"\nrc=$?\n");
        for (String post : r.postExec()) {
            // in a subshell: its own 'exit 4' must not become the task's status
            script.append("(\n").append(post).append("\n) || echo \"").append(POST_FAILED).append(" (exit $?): \"").append(quoted(post))
                    .append(" >&2\n");
        }
        script.append("exit $rc\n");
        List<String> a = new ArrayList<>(List.of("-c", script.toString(), "banyan-task", r.executable()));
        a.addAll(r.args());
        return new TaskCommand("/bin/sh", a);
    }

    /** {@code s} as one single-quoted shell word. */
    private static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
