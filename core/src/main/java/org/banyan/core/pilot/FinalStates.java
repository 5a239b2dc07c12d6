package org.banyan.core.pilot;

/**
 * How the agent's recent tasks ended, two bits a task, so that a task submitted later may depend
 * on one that has ended (see {@link TaskDependency}) whoever submitted it. The DVM forgets a
 * finished task's last update once its submitter has it (it grew by a gigabyte an hour when it
 * kept them all); this keeps the last {@link #KEPT} ids' ends in a fixed megabyte instead.
 * Ids are given in order, so the slots are a ring over them.
 */
final class FinalStates {
    /** How many of the latest ids are answered for: 4,194,304, half an hour at 2,000 tasks a second. */
    static final int KEPT = 1 << 22;
    private static final TaskState[] CODES = {null, TaskState.DONE, TaskState.FAILED, TaskState.CANCELED};

    private final int kept;
    private final long[] bits;

    FinalStates() {
        this(KEPT);
    }

    /** @param kept a power of two */
    FinalStates(int kept) {
        this.kept = kept;
        this.bits = new long[kept / 32];
    }

    /** The id is given out: its slot, last a task {@link #kept} ids older, starts empty. */
    void given(int id) {
        put(id, 0);
    }

    void ended(int id, TaskState state) {
        put(id, switch (state) {
            case DONE -> 1;
            case FAILED -> 2;
            case CANCELED -> 3;
            default -> throw new IllegalArgumentException(state + " is not an end");
        });
    }

    /**
     * How task {@code id} ended, or null when it has not, or is not among the last ids given
     * ({@code newest}, the last id given out).
     */
    TaskState of(int id, int newest) {
        if (id <= 0 || id > newest || newest - id >= kept) {
            return null;
        }
        int slot = id & (kept - 1);
        return CODES[(int) (bits[slot >>> 5] >>> ((slot & 31) << 1)) & 3];
    }

    private void put(int id, int code) {
        int slot = id & (kept - 1);
        int shift = (slot & 31) << 1;
        bits[slot >>> 5] = bits[slot >>> 5] & ~(3L << shift) | (long) code << shift;
    }
}
