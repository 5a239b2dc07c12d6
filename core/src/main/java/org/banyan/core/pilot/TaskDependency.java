package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.List;

/**
 * A condition on another task of the same DVM that a task waits for before it is scheduled, as
 * Slurm's and Flux's job dependencies ({@code --dependency=afterok:ID}): the other task has
 * started ({@code after}), has ended ({@code afterany}), has ended DONE ({@code afterok}) or has
 * ended otherwise ({@code afternotok}). One that can no longer be met (an {@code afterok} whose
 * task FAILED) fails the waiting task, rather than leaving it waiting for ever as Slurm does by
 * default.
 *
 * @param taskId the other task's id on the DVM (what {@code banyan submit --detach} prints)
 */
public record TaskDependency(Kind kind, int taskId) {
    public enum Kind {
        /** The task has started, or ended without starting (canceled while it waited), as Slurm's {@code after}. */
        AFTER("after"),
        AFTER_ANY("afterany"),
        AFTER_OK("afterok"),
        AFTER_NOT_OK("afternotok");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        /** How users write it: {@code afterok}. */
        public String word() {
            return word;
        }

        /** Whether the other task being in {@code state} meets this condition: yes, never, or not yet (null). */
        public Boolean metBy(TaskState state) {
            return switch (this) {
                case AFTER -> state == TaskState.AGENT_EXECUTING || state.isFinal() ? Boolean.TRUE : null;
                case AFTER_ANY -> state.isFinal() ? Boolean.TRUE : null;
                case AFTER_OK -> state.isFinal() ? state == TaskState.DONE : null;
                case AFTER_NOT_OK -> state.isFinal() ? state != TaskState.DONE : null;
            };
        }
    }

    public TaskDependency {
        if (taskId <= 0) {
            throw new IllegalArgumentException("a task id is a positive number, got " + taskId);
        }
    }

    /** Whether the other task being in {@code state} meets this condition: yes, never, or not yet (null). */
    public Boolean metBy(TaskState state) {
        return kind.metBy(state);
    }

    /** The ids of the tasks {@code dependencies} name, in order, each once. */
    public static java.util.SortedSet<Integer> ids(java.util.Collection<TaskDependency> dependencies) {
        java.util.SortedSet<Integer> ids = new java.util.TreeSet<>();
        for (TaskDependency d : dependencies) {
            ids.add(d.taskId());
        }
        return ids;
    }

    /** This dependency as a condition of a {@link DependencyBook} keyed by DVM task id. */
    public DependencyBook.Condition<Integer> condition() {
        return new DependencyBook.Condition<>(kind, taskId);
    }

    @Override
    public String toString() {
        return kind.word + ":" + taskId;
    }

    /** The most ids one text may name, ranges counted out: a typo such as {@code 1-10000000} is refused, not sent. */
    static final int MOST = 1_000_000;

    /**
     * Dependencies as Slurm and Flux users write them: {@code afterok:7}, several ids of one kind
     * as {@code afterok:7:9}, several conditions separated by commas
     * ({@code afterok:7,afterany:9}); all of them must be met. Ids may be ranges, and a comma
     * followed by ids goes on with the kind before it, so that what {@code banyan submit --detach}
     * prints ({@code 3-9,12}) can follow a kind as it is: {@code afterany:3-9,12}.
     *
     * @throws IllegalArgumentException naming the part that is not one
     */
    public static List<TaskDependency> parse(String text) {
        List<TaskDependency> out = new ArrayList<>();
        Kind kind = null;
        for (String raw : text.split(",", -1)) {
            String part = raw.strip();
            String[] words = part.split(":", -1);
            int first = 0;
            if (part.isEmpty() || !Character.isDigit(part.charAt(0))) {
                kind = null;
                for (Kind k : Kind.values()) {
                    if (k.word.equals(words[0])) {
                        kind = k;
                    }
                }
                first = 1;
            }
            if (kind == null || words.length <= first) {
                throw new IllegalArgumentException("'" + part + "' is not a dependency: write KIND:ID[:ID...], KIND one of "
                        + "after, afterany, afterok, afternotok (like afterok:7)");
            }
            for (int i = first; i < words.length; i++) {
                int dash = words[i].indexOf('-', 1);
                int from = id(words[i], dash < 0 ? words[i] : words[i].substring(0, dash), part);
                int to = dash < 0 ? from : id(words[i], words[i].substring(dash + 1), part);
                if (to < from || out.size() + (long) to - from >= MOST) {
                    throw new IllegalArgumentException("'" + part + "': '" + words[i] + "' is not a range of task ids (at most "
                            + MOST + " in all)");
                }
                for (int id = from; id <= to; id++) {
                    out.add(new TaskDependency(kind, id));
                }
            }
        }
        return List.copyOf(out);
    }

    private static int id(String word, String digits, String part) {
        int id;
        try {
            id = Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            id = 0;
        }
        if (id <= 0) {
            throw new IllegalArgumentException("'" + part + "': '" + word
                    + "' is not a task id (a positive number, as banyan submit --detach prints)");
        }
        return id;
    }
}
