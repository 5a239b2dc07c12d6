package org.banyan.cli.tasks;

/** A failed task's exit as {@code banyan submit} and {@code banyan wait} show it in its line. */
final class ExitShown {
    private ExitShown() {}

    /**
     * {@code exit N}, or {@code no exit status} for a task that never ran or whose end was not
     * seen (a failed staging or dependency, a lost pilot), as RADICAL-Pilot's {@code exit_code}
     * is None; it read {@code exit -1}.
     */
    static String of(int code) {
        return code < 0 ? "no exit status" : "exit " + code;
    }
}
