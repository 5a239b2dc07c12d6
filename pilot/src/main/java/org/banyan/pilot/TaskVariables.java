package org.banyan.pilot;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The variables a task reads about where it runs, under Banyan's names and RADICAL-Pilot's
 * ({@code RP_*}, which RP's tasks and their scripts read): its pilot and session, set here by the
 * task manager; its uid, sandbox, ranks and cores are set by the agent ({@code
 * TaskRequest.variables}). A variable the task's own environment sets is left as it set it.
 */
final class TaskVariables {
    private TaskVariables() {}

    /** The same for every task of one pilot: its id and sandbox, the session's id and sandbox. */
    static Map<String, String> ofPilot(String pilotId, Path sessionDir, Path pilotSandbox) {
        String session = sessionDir.getFileName().toString();
        return Map.of("BANYAN_PILOT_ID", pilotId, "RP_PILOT_ID", pilotId,
                "BANYAN_SESSION_ID", session, "RP_SESSION_ID", session,
                "BANYAN_PILOT_SANDBOX", pilotSandbox.toString(), "RP_PILOT_SANDBOX", pilotSandbox.toString(),
                "BANYAN_SESSION_SANDBOX", sessionDir.toString(), "RP_SESSION_SANDBOX", sessionDir.toString());
    }

    /** The task's environment with its pilot's variables (and its name) under it. */
    static Map<String, String> withPilot(Map<String, String> own, Map<String, String> pilot, String name) {
        Map<String, String> env = new HashMap<>(pilot.size() + own.size() + 4);
        env.putAll(pilot);
        if (name != null) {
            env.put("BANYAN_TASK_NAME", name);
            env.put("RP_TASK_NAME", name);
        }
        env.putAll(own);
        return env;
    }
}
