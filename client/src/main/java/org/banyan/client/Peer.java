package org.banyan.client;

/**
 * What the node-local process table says about one rank.
 *
 * @param rank      the rank
 * @param host      its host's name, as the job's host list gives it
 * @param node      its host's index in the job (its ranks' BANYAN_NODE_RANK)
 * @param localRank its index among the ranks of its host
 * @param localSize how many ranks its host runs
 * @param appnum    its application context (MPMD), from 0
 * @param firstCpu  the first CPU it is bound to, or -1 when it is not bound or not on this host
 * @param cpus      how many CPUs it is bound to (0 when {@code firstCpu} is -1)
 */
public record Peer(int rank, String host, int node, int localRank, int localSize, int appnum, int firstCpu, int cpus) {
    /** Whether this rank is bound to CPUs (known for the ranks of this host only). */
    public boolean bound() {
        return firstCpu >= 0;
    }
}
