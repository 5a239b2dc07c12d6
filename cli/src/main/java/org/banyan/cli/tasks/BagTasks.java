package org.banyan.cli.tasks;

/**
 * A bag's tasks made as the bag asks for them, a slice at a time ({@link TaskFile.Tasks},
 * {@link SubmitCommand.Copies}): what the bag would otherwise learn by making them all.
 */
interface BagTasks {
    /** Whether every task has the same priority. */
    boolean onePriority();

    /** The ids of the DVM's tasks that some task depends on (see {@link org.banyan.core.pilot.TaskDependency}). */
    java.util.Set<Integer> dependencyIds();
}
