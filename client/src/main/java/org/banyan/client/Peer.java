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
 */
public record Peer(int rank, String host, int node, int localRank, int localSize, int appnum) {}
