package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * MPI_Comm_create_group's agreement: only the group's members take part, so the context id is
 * agreed among them by point-to-point messages on the parent's collective context, under a tag
 * made from the user's (so that creations by other groups of the same parent, at the same time,
 * do not mix): each member sends its next free id to the group's first member, which answers
 * with the largest. Internal tags there are positive; these are -2 and below, never ANY_TAG.
 */
final class GroupCreation {
    /** The largest tag a creation takes (MPI guarantees tags up to 32,767). */
    static final int MAX_TAG = 1 << 30;

    private GroupCreation() {}

    /** The parent's ranks of {@code g}'s members, in {@code g}'s order; refused when one is not the parent's or this rank is not in it. */
    static int[] members(Comm parent, Group g) {
        int[] ranks = ranksOf(parent, g, "createGroup", parent.name());
        if (g.rank() == Group.UNDEFINED) {
            throw new IllegalArgumentException("createGroup: this rank is not in the group " + g + "; only its members call it");
        }
        return ranks;
    }

    /**
     * {@code comm}'s ranks of {@code g}'s processes, in {@code g}'s order; refused, for
     * {@code what}, when one is not in it ({@code here}: how the refusal names this communicator).
     */
    static int[] ranksOf(Comm comm, Group g, String what, String here) {
        int[] ranks = new int[g.size()];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = -1;
            for (int r = 0; r < comm.group.length; r++) {
                if (comm.group[r] == g.members[i]) {
                    ranks[i] = r;
                }
            }
            if (ranks[i] < 0) {
                throw new IllegalArgumentException(what + ": the group " + g + " has a process outside " + here);
            }
        }
        return ranks;
    }

    /** The context id the members agree on: the largest of their next free ids ({@code next} is this rank's). */
    static int agree(Comm parent, int[] members, int me, int tag, int next) {
        if (tag < 0 || tag > MAX_TAG) {
            throw new IllegalArgumentException("createGroup: tag " + tag + " is outside 0 to " + MAX_TAG);
        }
        int wire = -2 - tag;
        int ctx = parent.context + 1;
        int leader = members[0];
        if (me != 0) {
            parent.sendInternal(MemorySegment.ofArray(new int[] {next}), leader, wire, ctx, Engine.Traffic.INTERNAL).await();
            int[] agreed = new int[1];
            parent.engine.receive(ctx, leader, wire, MemorySegment.ofArray(agreed)).await();
            return agreed[0];
        }
        int max = next;
        int[] theirs = new int[1];
        for (int i = 1; i < members.length; i++) {
            parent.engine.receive(ctx, members[i], wire, MemorySegment.ofArray(theirs)).await();
            max = Math.max(max, theirs[0]);
        }
        for (int i = 1; i < members.length; i++) {
            parent.sendInternal(MemorySegment.ofArray(new int[] {max}), members[i], wire, ctx, Engine.Traffic.INTERNAL).await();
        }
        return max;
    }
}
