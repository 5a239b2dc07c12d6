package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.rm.AllocationPolicy;

/**
 * What an elastic DVM ({@code dvm start --elastic}, inside a Slurm job) decides about its hosts:
 * which free ones to give back when a job waiting in Slurm needs them, when to ask Slurm for
 * hosts again and which slots they fill, what becomes of a daemon that never joins, and which
 * Slurm jobs must shrink once released daemons are gone ({@link AllocationPolicy} says how many).
 * One resize at a time. The driver only runs Slurm's commands ({@link DvmAction.SlurmGrow},
 * {@link DvmAction.SlurmShrink}) and says what they did ({@link DvmEvent.SlurmGranted},
 * {@link DvmEvent.SlurmShrunk}).
 *
 * <p>Only slots the head starts alone (its children with nothing below them in the spawn tree)
 * can be filled again; a DVM whose daemons one step started (static ports) gives back but does
 * not grow.
 */
final class ElasticPolicy {
    /** How long a granted host's daemon has to connect before its slot is given up. */
    static final long JOIN_MILLIS = 30_000;

    private final String jobId;
    private final DvmHosts hosts;
    private final Topology spawn;
    private final Topology routing;
    private final boolean stepPerDaemon;
    private final Consumer<String> say;
    private final Consumer<DvmAction> out;
    private final AllocationPolicy policy = new AllocationPolicy(1);
    /** The Slurm job each host in service is in: the DVM's own or a later one. */
    private final Map<Integer, String> jobOf = new HashMap<>();
    private final Set<Integer> leaving = new LinkedHashSet<>();
    private final List<Integer> shrink = new ArrayList<>();
    private final Set<Integer> joining = new LinkedHashSet<>();
    /** The host each joining slot was granted. */
    private final Map<Integer, String> granted = new HashMap<>();
    /** The slots a grow asked for, in order, until Slurm answers. */
    private List<Integer> asked = List.of();
    /** When the joining daemons must have connected (the clock's nanoseconds). */
    private long joinDeadline;
    /** From a decision until Slurm has the hosts, or until they joined: one resize at a time. */
    private boolean busy;

    /**
     * @param jobId         the DVM's own Slurm job
     * @param stepPerDaemon whether the head starts each daemon in a job step of its own (false
     *                      with static ports: one step started them all, and a slot cannot be filled again)
     */
    ElasticPolicy(String jobId, DvmHosts hosts, TopologySpec spawn, TopologySpec routing, boolean stepPerDaemon,
                  Consumer<String> say, Consumer<DvmAction> out) {
        this.jobId = jobId;
        this.hosts = hosts;
        this.spawn = spawn.over(hosts.size() + 1);
        this.routing = routing.over(hosts.size() + 1);
        this.stepPerDaemon = stepPerDaemon;
        this.say = say;
        this.out = out;
        for (int i = 0; i < hosts.size(); i++) {
            jobOf.put(i, jobId);
        }
    }

    /**
     * What Slurm showed: gives hosts back (the head's events that release their daemons), or
     * asks Slurm for hosts (a {@link DvmAction.SlurmGrow}), or nothing.
     */
    List<HeadEvent> decide(AllocationPolicy.Outside outside, Set<String> idle, ElasticPool pool, long nowNanos) {
        boolean anyQueued = pool.anyQueued();
        // running malleable jobs shrink at their next check when the free hosts are not enough
        pool.outsideDemand(outside.anyPending() && !anyQueued ? outside.firstPendingNodes() - outside.idleNodes() : 0);
        if (!joining.isEmpty() && nowNanos - joinDeadline > 0) {
            // a daemon that never connected (a step that hangs) would hold every later resize: give its slot up
            List<HeadEvent> lost = new ArrayList<>();
            for (int d : joining) {
                lost.add(new HeadEvent.DaemonLost(d, "did not connect within " + JOIN_MILLIS / 1000 + " s of Slurm's grant"));
            }
            return lost;
        }
        if (busy) {
            return List.of();
        }
        List<Integer> ids = release(outside, pool::isFree, anyQueued);
        if (!ids.isEmpty()) {
            for (int i : ids) {
                pool.retire(i);
                hosts.released(i);
            }
            say.accept("giving " + names(ids) + " back to Slurm: a job waiting there needs " + outside.firstPendingNodes()
                    + " node(s), " + outside.idleNodes() + " idle");
            return List.of(new HeadEvent.ReleaseDaemons(ids));
        }
        List<Integer> slots = refillable();
        int n = policy.regain(pool.wanted(), Math.min(slots.size(), idle.size()), outside);
        if (n > 0) {
            // the hosts it gave back first, by name, when Slurm shows them idle
            List<String> preferred = new ArrayList<>();
            for (int i : slots) {
                if (preferred.size() < n && !hosts.isVacant(i) && idle.contains(hosts.get(i).name())) {
                    preferred.add(hosts.get(i).name());
                }
            }
            List<String> serving = new ArrayList<>();
            for (int i = 0; i < hosts.size(); i++) {
                if (hosts.serves(i)) {
                    serving.add(hosts.get(i).name());
                }
            }
            busy = true;
            asked = List.copyOf(slots);
            say.accept("asking Slurm for " + n + " host(s)" + (preferred.isEmpty() ? "" : ", " + preferred + " first")
                    + ": the DVM's jobs want " + pool.wanted() + " host(s) more");
            int cpus = slots.stream().mapToInt(i -> hosts.get(i).slots()).max().orElse(1);
            out.accept(new DvmAction.SlurmGrow(n, preferred, serving, cpus));
        }
        return List.of();
    }

    /**
     * The hosts to give back now, each free ({@code free} by host index) and with nothing still
     * serving below it in the spawn tree or the routing tree (a daemon that leaves takes its
     * subtree with it, and routes through it break); the last hosts of the list first; none
     * while a resize is under way. Marks them leaving.
     */
    List<Integer> release(AllocationPolicy.Outside outside, IntPredicate free, boolean anyQueued) {
        if (busy) {
            return List.of();
        }
        List<Integer> releasable = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        for (int i = hosts.size() - 1; i > 0; i--) {
            if (hosts.serves(i) && free.test(i) && nothingServesBelow(spawn, i, taken) && nothingServesBelow(routing, i, taken)) {
                releasable.add(i);
                taken.add(i);
            }
        }
        int n = policy.release(new AllocationPolicy.Inside(hosts.inService(), releasable.size(), anyQueued), outside);
        // a prefix of this order holds every chosen host's subtree: children come before their parents
        List<Integer> chosen = List.copyOf(releasable.subList(0, n));
        if (!chosen.isEmpty()) {
            leaving.addAll(chosen);
            shrink.clear();
            shrink.addAll(chosen);
            busy = true;
        }
        return chosen;
    }

    /**
     * The slots a granted host can fill: given back or vacant, and started by the head alone
     * (its children with nothing below them), lowest index first; none with static ports.
     */
    List<Integer> refillable() {
        List<Integer> slots = new ArrayList<>();
        if (!stepPerDaemon) {
            return slots;
        }
        for (int i = 1; i < hosts.size(); i++) {
            int v = Topology.vertexOfDaemon(i);
            if (hosts.awaitsHost(i) && spawn.parent(v) == 0 && spawn.children(v).length == 0) {
                slots.add(i);
            }
        }
        return slots;
    }

    /** Which slot each granted host fills: a host the DVM gave back its own slot, the others the free slots in order. */
    static Map<Integer, String> fill(List<Integer> slots, List<String> slotHosts, List<String> grantedHosts) {
        Map<Integer, String> filled = new TreeMap<>();
        List<String> left = new ArrayList<>(grantedHosts);
        for (int k = 0; k < slots.size(); k++) {
            if (left.remove(slotHosts.get(k))) {
                filled.put(slots.get(k), slotHosts.get(k));
            }
        }
        for (int slot : slots) {
            if (!left.isEmpty() && !filled.containsKey(slot)) {
                filled.put(slot, left.removeFirst());
            }
        }
        return filled;
    }

    /**
     * Slurm granted job {@code job} on {@code got}: each slot asked for that a host fills is
     * joining on it, its daemon started in that job; those not connected within
     * {@link #JOIN_MILLIS} are given up at a probe after it. Returns the head's event that starts
     * them, or null (and gives the job back) when no slot is filled.
     */
    HeadEvent granted(String job, List<String> got, long nowNanos) {
        Map<Integer, String> filled = fill(asked, asked.stream().map(i -> hosts.get(i).name()).toList(), got);
        asked = List.of();
        if (filled.isEmpty()) {
            say.accept("cannot get hosts from Slurm: job " + job + " holds no slot's host (" + got + ")");
            out.accept(new DvmAction.SlurmShrink(Map.of(job, got), Map.of(job, List.of()), false));
            busy = false;
            return null;
        }
        say.accept("Slurm granted job " + job + " on " + got);
        joinDeadline = nowNanos + JOIN_MILLIS * 1_000_000;
        filled.forEach((slot, host) -> {
            jobOf.put(slot, job);
            granted.put(slot, host);
            joining.add(slot);
        });
        return new HeadEvent.RejoinDaemons(filled);
    }

    /** Slurm gave nothing (or the command failed): the next probe may try again. */
    void grantFailed(String why) {
        say.accept("cannot get hosts from Slurm: " + why);
        asked = List.of();
        busy = false;
    }

    /**
     * Released daemon {@code d} is gone: the last of a shrink's has the Slurm jobs that held
     * their hosts shrink; one that was rejoining failed to start, and its host goes back.
     */
    void gone(int d) {
        if (joining.remove(d)) {
            say.accept("the daemon on " + granted.remove(d) + " did not start; its host goes back to Slurm");
            out.accept(shrinkJobs(List.of(d), joining.isEmpty()));
            return;
        }
        say.accept("the daemon on " + hosts.get(d).name() + " has left");
        if (leaving.remove(d) && leaving.isEmpty()) {
            out.accept(shrinkJobs(List.copyOf(shrink), true));
        }
    }

    /** The Slurm jobs holding {@code gone}'s hosts, what each lets go and what it keeps (never the DVM's own host 0). */
    private DvmAction.SlurmShrink shrinkJobs(List<Integer> gone, boolean last) {
        Map<String, List<String>> letGo = new LinkedHashMap<>();
        for (int i : gone) {
            String job = jobOf.remove(i);
            if (job != null) {
                letGo.computeIfAbsent(job, j -> new ArrayList<>()).add(hosts.get(i).name());
            }
        }
        Map<String, List<String>> keep = new LinkedHashMap<>();
        for (String job : letGo.keySet()) {
            List<String> kept = new ArrayList<>();
            jobOf.forEach((i, j) -> {
                if (j.equals(job)) {
                    kept.add(hosts.get(i).name());
                }
            });
            kept.sort(null);
            keep.put(job, kept);
        }
        return new DvmAction.SlurmShrink(letGo, keep, last);
    }

    /** Slurm's jobs let the hosts go; after the last shrink of a resize, the next may begin. */
    void shrunk(boolean last) {
        if (last) {
            busy = false;
        }
    }

    /**
     * The host slot {@code d} stands for: the one Slurm granted it while its daemon joins (the
     * daemon says what it has before it is adopted), else the slot's own.
     */
    String hostOf(int d) {
        String joiningOn = granted.get(d);
        return joiningOn != null ? joiningOn : hosts.get(d).name();
    }

    /** Rejoining daemon {@code d} is adopted: its host serves again. */
    void rejoined(int d, ElasticPool pool) {
        if (!joining.remove(d)) {
            return;
        }
        hosts.rejoined(d, granted.remove(d));
        pool.restore(d);
        say.accept("the daemon on " + hosts.get(d).name() + " is back, in Slurm job " + jobOf.get(d));
        if (joining.isEmpty()) {
            busy = false;
        }
    }

    /** The Slurm jobs the DVM took after its own (to cancel when it stops). */
    Set<String> laterJobs() {
        Set<String> later = new LinkedHashSet<>(jobOf.values());
        later.remove(jobId);
        return later;
    }

    private boolean nothingServesBelow(Topology tree, int host, Set<Integer> taken) {
        int top = Topology.vertexOfDaemon(host);
        return !tree.anyInSubtree(top, v -> {
            int d = Topology.daemonOfVertex(v);
            return v != top && hosts.serves(d) && !taken.contains(d);
        });
    }

    private List<String> names(List<Integer> ids) {
        return ids.stream().map(i -> hosts.get(i).name()).toList();
    }
}
