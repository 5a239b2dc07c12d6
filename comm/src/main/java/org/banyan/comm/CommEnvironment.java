package org.banyan.comm;

import java.util.Arrays;
import org.banyan.client.Banyan;

/**
 * What MPI calls the environment of a communicator's processes: the clock, the host's name,
 * comparing communicators, and ending the job (MPI_Wtime, MPI_Get_processor_name,
 * MPI_Comm_compare, MPI_Abort).
 */
public abstract sealed class CommEnvironment extends CommSpawning permits Comm {
    CommEnvironment() {}

    /** What {@link #compare} finds, as MPI_Comm_compare's MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR, MPI_UNEQUAL. */
    public enum Comparison {
        /** The same communicator. */
        IDENT,
        /** The same processes in the same order, on a message space of its own (a dup). */
        CONGRUENT,
        /** The same processes in another order. */
        SIMILAR,
        UNEQUAL
    }

    /** MPI_Wtime: seconds from an arbitrary moment of this process, for differences. */
    public static double wtime() {
        return System.nanoTime() / 1e9;
    }

    /** MPI_Get_processor_name: this host's name. */
    public static String processorName() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (java.io.IOException e) {
            return System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
    }

    /** MPI_Comm_compare: this communicator against {@code other}. Not collective. */
    public Comparison compare(Comm other) {
        Comm me = asComm();
        if (other == me) {
            return Comparison.IDENT;
        }
        if (other == null || other.engine != me.engine) { // another world's numbers name other processes
            return Comparison.UNEQUAL;
        }
        if (Arrays.equals(me.group, other.group)) {
            return me.context == other.context ? Comparison.IDENT : Comparison.CONGRUENT;
        }
        int[] a = me.group.clone();
        int[] b = other.group.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? Comparison.SIMILAR : Comparison.UNEQUAL;
    }

    /**
     * MPI_Abort: ends the job this process is a rank of, every rank of it, with {@code errorCode}
     * as its status (the launcher says which rank called it); does not return. MPI lets an
     * implementation end more than the communicator's group, and Banyan ends the whole job, as
     * mpirun and Hydra do.
     */
    public void abort(int errorCode) {
        abort(errorCode, null);
    }

    /** {@link #abort(int)} with a message the launcher shows with it. */
    public void abort(int errorCode, String message) {
        Banyan job = asComm().engine.job;
        if (job != null) {
            job.abort(errorCode, message);
        }
        // a world with no job (a test's, in one JVM): this process ends, and under a launcher its
        // end with a non-zero status would end the job
        if (message != null && !message.isEmpty()) {
            System.err.println(message);
        }
        System.err.flush();
        Runtime.getRuntime().halt(errorCode);
    }
}
