package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.banyan.core.dvm.DvmHosts;
import org.banyan.core.dvm.ElasticPool;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.rm.AllocationPolicy;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.launch.ProcessStarter;
import org.banyan.runtime.launch.SlurmHostlist;

/**
 * A DVM inside a Slurm job that gives hosts back and takes them again
 * ({@code banyan dvm start --elastic}). Every period it reads, off the head's loop, what waits
 * in Slurm ({@code squeue}) and which nodes are idle ({@code sinfo}); in the loop
 * {@link AllocationPolicy} decides.
 *
 * <p>Giving back: the head releases free daemons; once the last of them is gone, each Slurm job
 * holding their hosts shrinks ({@code scontrol update JobId=J NodeList=<the hosts kept>}, after
 * their job steps ended) or, when it holds nothing else, is cancelled; Slurm may then start the
 * waiting job on them. Growing: when nothing waits in Slurm and the DVM's queue or malleable
 * jobs want hosts, it asks Slurm for idle ones with another allocation ({@code salloc
 * --no-shell --immediate}, the hosts it gave back first, by name), and the head starts a daemon
 * on each in it ({@code srun --jobid}), filling a slot given back or one left vacant at the
 * start ({@code --max-nodes}). One resize at a time. Only slots the head starts alone (its
 * children with nothing below them in the spawn tree: every slot up to the tree's radix) can be
 * filled; a DVM started with static ports (one step of all daemons) gives back but does not
 * grow. Extra allocations end with the DVM, and at the latest with its own job's time.
 */
final class ElasticSlurm {
    /** What a probe of Slurm saw: the policy's view, and the idle nodes by name. */
    record Seen(AllocationPolicy.Outside outside, Set<String> idle) {
        static final Seen QUIET = new Seen(AllocationPolicy.Outside.QUIET, Set.of());
    }

    private static final Pattern GRANTED = Pattern.compile("Granted job allocation (\\d+)");
    /** How long a shrink waits for the job steps of the leaving daemons to end. */
    private static final long STEP_END_MILLIS = 10_000;
    /** How long a granted host's daemon has to connect before its slot is given up. */
    static final long JOIN_MILLIS = 30_000;

    private final String jobId;
    private final DvmHosts hosts;
    private final Path workDir;
    private final Consumer<String> say;
    private final Consumer<HeadEvent> post;
    private final LaunchAgent agent;
    private final Topology spawn;
    private final Topology routing;
    private final AllocationPolicy policy = new AllocationPolicy(1);
    /** The Slurm job each host in service is in: the DVM's own or a later one (read by the starter's threads). */
    private final Map<Integer, String> jobOf = new ConcurrentHashMap<>();
    private final Set<Integer> leaving = new LinkedHashSet<>();
    private final List<Integer> shrink = new ArrayList<>();
    private final Set<Integer> joining = ConcurrentHashMap.newKeySet();
    /** The host each joining slot was granted. */
    private final Map<Integer, String> granted = new ConcurrentHashMap<>();
    /** When the joining daemons must have connected ({@link System#nanoTime}). */
    private volatile long joinDeadline;
    /** From a decision until Slurm has the hosts, or until they joined: one resize at a time. */
    private final AtomicBoolean busy = new AtomicBoolean();
    /** Set when the DVM stops: an allocation granted after that is cancelled at once. */
    private volatile boolean closed;

    /**
     * @param workDir where scontrol may write the resize scripts it writes into its working
     *                directory (removed after each shrink)
     * @param post    hands the head's loop an event (from any thread)
     */
    ElasticSlurm(String jobId, DvmHosts hosts, TopologySpec spawn, TopologySpec routing, Path workDir, LaunchAgent agent,
                 Consumer<String> say, Consumer<HeadEvent> post) {
        this.spawn = spawn.over(hosts.size() + 1);
        this.routing = routing.over(hosts.size() + 1);
        this.jobId = jobId;
        this.hosts = hosts;
        this.workDir = workDir;
        this.agent = agent;
        this.say = say;
        this.post = post;
        for (int i = 0; i < hosts.size(); i++) {
            jobOf.put(i, jobId);
        }
    }

    /** Reads Slurm's queue and idle nodes on a thread of its own; hands what it saw to {@code seen}. */
    void probe(Consumer<Seen> seen) {
        Thread.ofVirtual().name("slurm-probe").start(() -> {
            try {
                String pending = run(List.of("squeue", "-h", "-t", "PENDING", "-o", "%i %D %Q %r"));
                String idle = run(List.of("sinfo", "-h", "-N", "-t", "idle", "-o", "%N"));
                seen.accept(new Seen(outside(pending, idle, jobId), idleNodes(idle)));
            } catch (IOException e) {
                say.accept("cannot read Slurm's queue: " + e.getMessage());
                seen.accept(Seen.QUIET);
            }
        });
    }

    /**
     * What Slurm shows: the first job waiting for resources or priority (highest priority, then
     * lowest id; not this DVM's own), and the distinct idle nodes.
     *
     * @param squeue lines of {@code squeue -h -t PENDING -o "%i %D %Q %r"}
     * @param sinfo  lines of {@code sinfo -h -N -t idle -o %N}
     */
    static AllocationPolicy.Outside outside(String squeue, String sinfo, String ownJob) {
        long bestPriority = -1;
        long bestId = Long.MAX_VALUE;
        int nodes = 0;
        for (String line : squeue.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 4 || f[0].equals(ownJob) || !(f[3].equals("Resources") || f[3].equals("Priority"))) {
                continue;
            }
            try {
                long id = Long.parseLong(f[0].replaceAll("[^0-9].*", ""));
                long priority = Long.parseLong(f[2]);
                if (priority > bestPriority || (priority == bestPriority && id < bestId)) {
                    bestPriority = priority;
                    bestId = id;
                    nodes = Integer.parseInt(f[1]);
                }
            } catch (NumberFormatException e) {
                // not a job line
            }
        }
        return new AllocationPolicy.Outside(bestPriority >= 0, nodes, idleNodes(sinfo).size());
    }

    private static Set<String> idleNodes(String sinfo) {
        Set<String> idle = new HashSet<>();
        for (String line : sinfo.split("\n")) {
            if (!line.isBlank()) {
                idle.add(line.strip());
            }
        }
        return idle;
    }

    /**
     * In the head's loop, with what Slurm showed: gives hosts back (the head's events that
     * release their daemons), or asks Slurm for hosts given back earlier (their daemons rejoin
     * once it grants them), or nothing.
     */
    List<HeadEvent> decide(Seen seen, ElasticPool pool) {
        AllocationPolicy.Outside outside = seen.outside();
        boolean anyQueued = pool.anyQueued();
        // running malleable jobs shrink at their next check when the free hosts are not enough
        pool.outsideDemand(outside.anyPending() && !anyQueued ? outside.firstPendingNodes() - outside.idleNodes() : 0);
        if (!joining.isEmpty() && System.nanoTime() - joinDeadline > 0) {
            // a daemon that never connected (a step that hangs) would hold every later resize: give its slot up
            List<HeadEvent> out = new ArrayList<>();
            for (int d : joining) {
                out.add(new HeadEvent.DaemonLost(d, "did not connect within " + JOIN_MILLIS / 1000 + " s of Slurm's grant"));
            }
            return out;
        }
        if (busy.get()) {
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
        int n = policy.regain(pool.wanted(), Math.min(slots.size(), seen.idle().size()), outside);
        if (n > 0) {
            // the hosts it gave back first, by name, when Slurm shows them idle
            List<String> preferred = new ArrayList<>();
            for (int i : slots) {
                if (preferred.size() < n && !hosts.isVacant(i) && seen.idle().contains(hosts.get(i).name())) {
                    preferred.add(hosts.get(i).name());
                }
            }
            List<String> serving = new ArrayList<>();
            for (int i = 0; i < hosts.size(); i++) {
                if (hosts.serves(i)) {
                    serving.add(hosts.get(i).name());
                }
            }
            busy.set(true);
            say.accept("asking Slurm for " + n + " host(s)" + (preferred.isEmpty() ? "" : ", " + preferred + " first")
                    + ": the DVM's jobs want " + pool.wanted() + " host(s) more");
            Thread.ofVirtual().name("slurm-grow").start(() -> allocate(n, preferred, serving, slots));
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
        if (busy.get()) {
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
        List<Integer> out = List.copyOf(releasable.subList(0, n));
        if (!out.isEmpty()) {
            leaving.addAll(out);
            shrink.clear();
            shrink.addAll(out);
            busy.set(true);
        }
        return out;
    }

    /**
     * The slots a granted host can fill: given back or vacant, and started by the head alone
     * (its children with nothing below them), lowest index first; none with static ports (one
     * step started every daemon).
     */
    List<Integer> refillable() {
        List<Integer> out = new ArrayList<>();
        if (!agent.stepPerDaemon()) {
            return out;
        }
        for (int i = 1; i < hosts.size(); i++) {
            int v = Topology.vertexOfDaemon(i);
            if (hosts.awaitsHost(i) && spawn.parent(v) == 0 && spawn.children(v).length == 0) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * Which slot each granted host fills: a host the DVM gave back its own slot, the others the
     * free slots in order.
     */
    static Map<Integer, String> fill(List<Integer> slots, List<String> slotHosts, List<String> granted) {
        Map<Integer, String> out = new java.util.TreeMap<>();
        List<String> left = new ArrayList<>(granted);
        for (int k = 0; k < slots.size(); k++) {
            if (left.remove(slotHosts.get(k))) {
                out.put(slots.get(k), slotHosts.get(k));
            }
        }
        for (int slot : slots) {
            if (!left.isEmpty() && !out.containsKey(slot)) {
                out.put(slot, left.removeFirst());
            }
        }
        return out;
    }

    private boolean nothingServesBelow(Topology tree, int host, Set<Integer> taken) {
        int top = Topology.vertexOfDaemon(host);
        return !tree.anyInSubtree(top, v -> {
            int d = Topology.daemonOfVertex(v);
            return v != top && hosts.serves(d) && !taken.contains(d);
        });
    }

    /**
     * Released daemon {@code d} is gone: the last of a shrink's has Slurm shrink the jobs that
     * held their hosts; one that was rejoining failed to start, and its host goes back.
     */
    void gone(int d) {
        if (joining.remove(d)) {
            say.accept("the daemon on " + granted.remove(d) + " did not start; its host goes back to Slurm");
            List<Integer> failed = List.of(d);
            boolean last = joining.isEmpty();
            Thread.ofVirtual().name("slurm-shrink").start(() -> shrinkJobs(failed, last));
            return;
        }
        say.accept("the daemon on " + hosts.get(d).name() + " has left");
        if (leaving.remove(d) && leaving.isEmpty()) {
            List<Integer> gone = List.copyOf(shrink);
            Thread.ofVirtual().name("slurm-shrink").start(() -> shrinkJobs(gone, true));
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
            busy.set(false);
        }
    }

    /**
     * Off the loop: another allocation of {@code n} hosts ({@code preferred} among them, none of
     * {@code serving}); their daemons start in it, each filling one of {@code slots}.
     */
    private void allocate(int n, List<String> preferred, List<String> serving, List<Integer> slots) {
        // as many CPUs per host as the slots it fills: without --mincpus a cons_tres cluster
        // grants one, and the DVM ran a slot's count of tasks in a one-CPU allocation
        int cpus = slots.stream().mapToInt(i -> hosts.get(i).slots()).max().orElse(1);
        List<String> command = new ArrayList<>(List.of("salloc", "--no-shell", "--immediate=10", "-N", Integer.toString(n),
                "--mincpus=" + cpus, "--exclude=" + String.join(",", serving), "-J", "banyan-dvm-" + jobId));
        if (!preferred.isEmpty()) {
            command.add("--nodelist=" + String.join(",", preferred));
        }
        String partition = System.getenv("SLURM_JOB_PARTITION");
        if (partition != null && !partition.isBlank()) {
            command.add("--partition=" + partition);
        }
        String job = null;
        try {
            // no longer than the DVM's own job: an allocation outliving a killed head ends by itself
            String left = run(List.of("squeue", "-h", "-j", jobId, "-o", "%L")).strip();
            if (left.matches("[0-9][0-9:-]*")) {
                command.add("--time=" + left);
            }
            String out = run(command);
            Matcher m = GRANTED.matcher(out);
            if (!m.find()) {
                throw new IOException("salloc granted nothing: " + out.strip());
            }
            job = m.group(1);
            if (closed) {
                throw new IOException("the DVM stopped while Slurm granted job " + job);
            }
            List<String> got = SlurmHostlist.expand(run(List.of("squeue", "-h", "-j", job, "-o", "%N")).strip());
            Map<Integer, String> fill = fill(slots, slots.stream().map(i -> hosts.get(i).name()).toList(), got);
            if (fill.isEmpty()) {
                throw new IOException("squeue shows no node for job " + job);
            }
            say.accept("Slurm granted job " + job + " on " + got);
            granted(job, fill, System.nanoTime() + JOIN_MILLIS * 1_000_000);
        } catch (IOException e) {
            say.accept("cannot get hosts from Slurm: " + e.getMessage());
            if (job != null) {
                try {
                    run(List.of("scancel", job));
                } catch (IOException ignored) {
                    // it ends at its time limit, which is the DVM's own
                }
            }
            busy.set(false);
        }
    }

    /**
     * Slurm job {@code job} was granted: each slot of {@code fill} is joining on its host, whose
     * daemon the head starts in that job; those not connected by {@code deadline} are given up
     * at a probe after it.
     */
    void granted(String job, Map<Integer, String> fill, long deadline) {
        joinDeadline = deadline;
        fill.forEach((slot, host) -> {
            jobOf.put(slot, job);
            granted.put(slot, host);
            joining.add(slot);
        });
        post.accept(new HeadEvent.RejoinDaemons(fill));
    }

    /**
     * Off the loop: the Slurm jobs holding {@code gone}'s hosts let them go: each shrinks to the
     * hosts it keeps, or is cancelled when it keeps none (never the DVM's own: host 0 stays).
     */
    private void shrinkJobs(List<Integer> gone, boolean last) {
        Map<String, List<String>> leavingByJob = new LinkedHashMap<>();
        for (int i : gone) {
            String job = jobOf.remove(i);
            if (job != null) {
                leavingByJob.computeIfAbsent(job, j -> new ArrayList<>()).add(hosts.get(i).name());
            }
        }
        try {
            for (Map.Entry<String, List<String>> e : leavingByJob.entrySet()) {
                String job = e.getKey();
                List<String> keep = new ArrayList<>();
                jobOf.forEach((i, j) -> {
                    if (j.equals(job)) {
                        keep.add(hosts.get(i).name());
                    }
                });
                try {
                    if (agent.stepPerDaemon()) {
                        awaitStepsOff(job, e.getValue());
                    }
                    if (keep.isEmpty()) {
                        run(List.of("scancel", job));
                        say.accept("Slurm job " + job + " cancelled: it held only " + e.getValue());
                    } else {
                        keep.sort(null);
                        run(List.of("scontrol", "update", "JobId=" + job, "NodeList=" + String.join(",", keep)));
                        say.accept("Slurm job " + job + " shrunk to " + String.join(",", keep));
                    }
                } catch (IOException ex) {
                    say.accept("cannot shrink Slurm job " + job + ": " + ex.getMessage());
                } finally {
                    for (String suffix : List.of(".sh", ".csh")) {
                        try {
                            Files.deleteIfExists(workDir.resolve("slurm_job_" + job + "_resize" + suffix));
                        } catch (IOException ignored) {
                            // best effort: a leftover script is harmless
                        }
                    }
                }
            }
        } finally {
            if (last) {
                busy.set(false);
            }
        }
    }

    /**
     * The starter of the head's children: a host of a later allocation is started in it
     * ({@code srun --jobid}), the others as {@code base} starts them.
     */
    ChildStarter starter(ChildStarter base) {
        Map<String, ProcessStarter> byJob = new ConcurrentHashMap<>();
        return new ChildStarter() {
            @Override
            public void start(int childId, String host, String parentAddress, Losses losses) {
                String job = jobOf.get(childId);
                if (job == null || job.equals(jobId)) {
                    base.start(childId, host, parentAddress, losses);
                } else {
                    byJob.computeIfAbsent(job, j -> new ProcessStarter(new LaunchAgent.Slurm(j)))
                            .start(childId, host, parentAddress, losses);
                }
            }

            @Override
            public void awaitOrKill(long deadlineNanos) {
                base.awaitOrKill(deadlineNanos);
                byJob.values().forEach(s -> s.awaitOrKill(deadlineNanos));
            }
        };
    }

    /** The DVM stops (its daemons are gone): the allocations it took after its own are cancelled. */
    void close() {
        closed = true;
        Set<String> extra = new LinkedHashSet<>(jobOf.values());
        extra.remove(jobId);
        for (String job : extra) {
            try {
                run(List.of("scancel", job));
                say.accept("Slurm job " + job + " cancelled: the DVM took its hosts after its own job");
            } catch (IOException e) {
                say.accept("cannot cancel Slurm job " + job + ": " + e.getMessage());
            }
        }
    }

    private List<String> names(List<Integer> ids) {
        return ids.stream().map(i -> hosts.get(i).name()).toList();
    }

    /**
     * Waits until no step of {@code job} runs on {@code gone} (a daemon's step ends just after
     * its link closes), or at most {@link #STEP_END_MILLIS}.
     */
    private void awaitStepsOff(String job, List<String> gone) throws IOException {
        long deadline = System.nanoTime() + STEP_END_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            boolean busyThere = false;
            for (String line : run(List.of("squeue", "-h", "-s", "-j", job, "-o", "%N")).split("\n")) {
                if (!line.isBlank() && !java.util.Collections.disjoint(SlurmHostlist.expand(line.strip()), gone)) {
                    busyThere = true;
                }
            }
            if (!busyThere) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Runs a Slurm command in {@link #workDir}; its output, or an IOException with its error. */
    private String run(List<String> command) throws IOException {
        Path output = Files.createTempFile("banyan-slurm", ".out");
        try {
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException(command.getFirst() + " did not answer within 30 s");
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            String out = Files.readString(output, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(command.getFirst() + " failed (status " + p.exitValue() + "): " + out.strip());
            }
            return out;
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
