package org.banyan.cli;

/**
 * A bag's tasks made as the bag asks for them, a slice at a time ({@link TaskFile.Tasks},
 * {@link SubmitCommand.Copies}): what the bag would otherwise learn by making them all.
 */
interface BagTasks {
    /** Whether every task has the same priority. */
    boolean onePriority();
}
