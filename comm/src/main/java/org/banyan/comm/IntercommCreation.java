package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * MPI_Intercomm_create's agreement: each group agrees within itself on its largest next free
 * context id (over a duplicate of its local communicator, which the intercommunicator keeps for
 * its collectives), the two leaders swap that id and their groups' members on the peer
 * communicator's collective context, under a tag made from the user's as {@link GroupCreation}
 * does, and each leader broadcasts the result in its group.
 */
final class IntercommCreation {
    /** The local group's own communicator, the agreed context, and the remote group's world ranks. */
    record Agreed(Comm local, int context, int[] remote) {}

    private IntercommCreation() {}

    static Agreed agree(Comm local, int localLeader, Comm peer, int remoteLeader, int tag) {
        local.checkRank(localLeader, "local leader");
        if (tag < 0 || tag > GroupCreation.MAX_TAG) {
            throw new IllegalArgumentException("Intercomm.create: tag " + tag + " is outside 0 to " + GroupCreation.MAX_TAG);
        }
        Comm mine = local.dup(local.name() + "_intercomm_local");
        long[] next = new long[1];
        mine.allreduce(new long[] {mine.nextContextHint()}, next, Op.MAX);
        int[] header = new int[2]; // the agreed context, the remote group's size
        int[] remoteGroup = null;
        if (local.rank() == localLeader) {
            peer.checkRank(remoteLeader, "remote leader");
            int wire = -2 - tag;
            int ctx = peer.context + 1;
            Request s1 = peer.sendInternal(MemorySegment.ofArray(new int[] {(int) next[0], local.size()}), remoteLeader, wire, ctx,
                    Engine.Traffic.INTERNAL);
            Request s2 = peer.sendInternal(MemorySegment.ofArray(local.group), remoteLeader, wire, ctx, Engine.Traffic.INTERNAL);
            int[] theirs = new int[2];
            peer.engine.receive(ctx, remoteLeader, wire, MemorySegment.ofArray(theirs)).await();
            remoteGroup = new int[theirs[1]];
            peer.engine.receive(ctx, remoteLeader, wire, MemorySegment.ofArray(remoteGroup)).await();
            Request.awaitAll(s1, s2);
            header[0] = Math.max((int) next[0], theirs[0]);
            header[1] = theirs[1];
        }
        mine.bcast(header, localLeader);
        if (remoteGroup == null) {
            remoteGroup = new int[header[1]];
        }
        mine.bcast(remoteGroup, localLeader);
        for (int w : remoteGroup) {
            for (int l : local.group) {
                if (w == l) {
                    mine.close();
                    throw new IllegalArgumentException("Intercomm.create: world rank " + w + " is in both groups; they must not share a process");
                }
            }
        }
        mine.advanceContexts(header[0] + 2);
        return new Agreed(mine, header[0], remoteGroup);
    }
}
