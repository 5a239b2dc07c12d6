package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.List;

/**
 * The command a task's processes run: its executable, or, with pre-exec or post-exec commands,
 * {@code /bin/sh} running those around it (each pre-exec must succeed; the executable's status
 * is the task's, whatever post-exec does). Every process of the task runs it, each rank of an
 * MPI task included, as RADICAL-Pilot runs pre-exec in every rank's launch script.
 */
public record TaskCommand(String executable, List<String> args) {
    public static TaskCommand of(TaskRequest r) {
        if (r.preExec().isEmpty() && r.postExec().isEmpty()) {
            return new TaskCommand(r.executable(), r.args());
        }
        StringBuilder script = new StringBuilder();
        for (String pre : r.preExec()) {
            script.append(pre).append(" || exit $?\n");
        }
        script.append("\"$@\"\nrc=$?\n");
        for (String post : r.postExec()) {
            script.append(post).append('\n');
        }
        script.append("exit $rc\n");
        List<String> a = new ArrayList<>(List.of("-c", script.toString(), "banyan-task", r.executable()));
        a.addAll(r.args());
        return new TaskCommand("/bin/sh", a);
    }
}
