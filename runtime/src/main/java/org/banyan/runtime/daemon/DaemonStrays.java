package org.banyan.runtime.daemon;

import java.util.Map;
import java.util.function.Supplier;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.os.ChildReaper;
import org.banyan.runtime.os.ProcessScan;
import org.banyan.runtime.os.Subreaper;

/**
 * What a daemon knows of a process, for {@link Strays}: its ranks by (job, rank) key, the
 * reapers of the children it spawned. A job is a unit with the low half of its key all ones (no
 * rank has that number); a DVM task is its own rank's key ({@link OverlayMessage#TASKS}, id).
 */
final class DaemonStrays implements Strays.Facts {
    private static final long ANY_RANK = 0xFFFFFFFFL;
    private final Map<Long, RankProcess> ranks;
    private final Supplier<ChildReaper[]> reapers;
    private final String self = Long.toString(ProcessHandle.current().pid());
    private final boolean attributesAll = Subreaper.wholeProcess();
    private final long group;
    private final long since;

    DaemonStrays(Map<Long, RankProcess> ranks, Supplier<ChildReaper[]> reapers) {
        this.ranks = ranks;
        this.reapers = reapers;
        ProcessScan.Proc me = ProcessScan.of(ProcessHandle.current().pid());
        this.group = me == null ? -1 : me.pgrp();
        // this thread's start, not the process's: a process that exec'd banyan started when its shell was forked
        ProcessScan.Proc thread = ProcessScan.currentThread();
        this.since = thread == null ? Long.MAX_VALUE : thread.start();
    }

    @Override
    public boolean anyRunning() {
        return !ranks.isEmpty();
    }

    @Override
    public boolean attributesAll() {
        return attributesAll && group > 0;
    }

    @Override
    public long group() {
        return group;
    }

    @Override
    public long since() {
        return since;
    }

    @Override
    public boolean helper(long pid) {
        return self.equals(ProcessScan.environ(pid).get(Subreaper.HELPER));
    }

    @Override
    public java.util.Set<Long> own() {
        java.util.Set<Long> own = new java.util.HashSet<>();
        for (RankProcess r : ranks.values()) {
            own.add(r.pid());
        }
        for (ChildReaper r : reapers.get()) {
            if (r != null) {
                r.addWatchedTo(own);
            }
        }
        return own;
    }

    @Override
    public long unitOf(long pid) {
        String mark = ProcessScan.environ(pid).get(Subreaper.MARK);
        if (mark == null) {
            return -1;
        }
        String[] f = mark.split(":");
        try {
            if (f.length != 3 || !f[0].equals(self)) {
                return -1;
            }
            int job = Integer.parseInt(f[1]);
            int rank = Integer.parseInt(f[2]);
            return job == OverlayMessage.TASKS ? rank & ANY_RANK : ((long) job << 32) | ANY_RANK;
        } catch (NumberFormatException e) {
            return -1; // a value the program changed: not one to act on
        }
    }

    @Override
    public java.util.List<ProcessScan.Proc> treeOf(ProcessScan.Proc root) {
        return ProcessScan.treeOf(root);
    }

    @Override
    public boolean unchanged(ProcessScan.Proc child) {
        return child.equals(ProcessScan.of(child.pid()));
    }

    @Override
    public boolean unitRunning(long unit) {
        if ((unit & ANY_RANK) != ANY_RANK) {
            return ranks.containsKey(unit);
        }
        for (long key : ranks.keySet()) {
            if (key >>> 32 == unit >>> 32) {
                return true;
            }
        }
        return false;
    }
}
