package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.Placement;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;

/**
 * A DVM's MPI jobs, on the head's loop thread: those of {@code banyan run --dvm}, those that
 * MPI_Comm_spawn starts from them, and queued jobs once they run. Each is placed on free slots
 * of the scheduler the tasks share; its output, reports and end go to the client that submitted
 * it (a spawned job's to its parent's client).
 */
final class DvmJobs {
    /** The DVM's job numbers, shared by jobs, queued jobs and MPI tasks. */
    static final class Numbers {
        private int next = 1;

        int peek() {
            return next;
        }

        int take() {
            return next++;
        }
    }

    /**
     * A running job: who submitted it, the cores it holds (null when oversubscribed or when the
     * resource manager placed it), where its stdin goes, for a queued job's its queued job (else
     * -1), and whether MPI_Comm_spawn started it from another job (its client waits for that one).
     */
    private record RunningJob(Client owner, Placement placement, String command, int ranks, HeadAction.ForwardStdin[] stdinTarget,
                              int queueId, boolean spawned, String monitorDir) {
        RunningJob(Client owner, Placement placement, String command, int ranks, HeadAction.ForwardStdin[] stdinTarget,
                   String monitorDir) {
            this(owner, placement, command, ranks, stdinTarget, -1, false, monitorDir);
        }
    }

    private final Map<Integer, RunningJob> jobs = new LinkedHashMap<>();
    private final DvmHosts hosts;
    private final GeneralScheduler scheduler;
    private final JobSlots slots;
    private final HeadSettings settings;
    private final Numbers numbers;
    private final DvmQueue queue;
    private final TaskDispatch tasks;
    /** Head events a job's end led to (an MPI task's end starts more tasks). */
    private final Consumer<HeadEvent> follow;
    private final Consumer<String> say;

    DvmJobs(DvmHosts hosts, GeneralScheduler scheduler, JobSlots slots, HeadSettings settings, Numbers numbers,
            DvmQueue queue, TaskDispatch tasks, Consumer<HeadEvent> follow, Consumer<String> say) {
        this.hosts = hosts;
        this.scheduler = scheduler;
        this.slots = slots;
        this.settings = settings;
        this.numbers = numbers;
        this.queue = queue;
        this.tasks = tasks;
        this.follow = follow;
        this.say = say;
    }

    /** A queued job started on the hosts the queue gave it. */
    void registerQueued(int jobId, Client owner, String command, int ranks, int queueId) {
        jobs.put(jobId, new RunningJob(owner, null, command, ranks, new HeadAction.ForwardStdin[1], queueId, false, null));
        owner.jobs.add(jobId);
    }

    Client ownerOf(int jobId) {
        RunningJob j = jobs.get(jobId);
        return j == null ? null : j.owner();
    }

    /** Whether {@code s} may signal or feed job {@code jobId}. */
    boolean owns(Client s, int jobId) {
        RunningJob j = jobs.get(jobId);
        return j != null && j.owner() == s;
    }

    /** Where job {@code jobId}'s stdin goes (the head's children, and the rank or all), or null while nowhere. */
    HeadAction.ForwardStdin stdinTarget(Client s, int jobId) {
        RunningJob j = jobs.get(jobId);
        return j != null && j.owner() == s ? j.stdinTarget()[0] : null;
    }

    /**
     * Places a job on free cores (the same scheduler as the tasks'); null (and a rejection sent)
     * when it cannot run now. With --oversubscribe a job that does not fit runs over all the
     * DVM's slots, holding none.
     */
    HeadEvent accept(Client s, ClientMessage.RunJob run, boolean ready) {
        if (run.placement().nodeOf() != null) {
            s.send(new ClientMessage.JobRejected("a DVM places jobs on its free slots itself; --rankfile does not apply"));
            return null;
        }
        if (!ready) {
            s.send(new ClientMessage.JobRejected("the DVM is not ready"));
            return null;
        }
        int free = scheduler.freeCores();
        List<AppContext> apps = new ArrayList<>();
        for (AppContext app : run.apps()) {
            apps.add(app.count() > 0 ? app : new AppContext(app.executable(), app.args(), Math.max(1, free), app.env(),
                    app.workdir()));
        }
        int ranks;
        try {
            ranks = JobDescription.ranks(apps);
        } catch (IllegalArgumentException e) { // a client's garbage must not reach the per-rank tables
            s.send(new ClientMessage.JobRejected(e.getMessage()));
            return null;
        }
        int perRank = JobSlots.coresPerRank(run.placement());
        JobSlots.Grant grant = slots.grant(numbers.peek(), ranks, run.placement(), run.oversubscribe());
        if (grant == null) {
            s.send(new ClientMessage.JobRejected(ranks + " rank" + (ranks == 1 ? "" : "s")
                    + (perRank > 1 ? " of " + perRank + " cores" : "") + " requested but only "
                    + free + " of the DVM's " + hosts.totalSlots() + " slots " + (free == 1 ? "is" : "are") + " free ("
                    + (hosts.totalSlots() - free - hosts.slotsOutOfService()) + " in use by other jobs and tasks"
                    + hosts.outOfServiceNote() + "); add --oversubscribe, wait, or queue it with 'banyan dvm submit'"));
            return null;
        }
        int jobId = numbers.take();
        JobDescription job = org.banyan.core.pmix.PmixNamespaces.name(new JobDescription(jobId, apps, grant.nodes(),
                run.mapping(), run.oversubscribe(), run.stdinRank(), run.launchDir(), run.modex(), grant.binding()),
                run.wireUp());
        try {
            RankMap.of(job);
        } catch (IllegalArgumentException e) {
            slots.release(jobId, grant.placement());
            s.send(new ClientMessage.JobRejected(e.getMessage()));
            return null;
        }
        String command = String.join(" ", apps.stream().map(AppContext::executable).toList());
        // banyan run --dvm --monitor: its ranks write live counters there for the dashboard
        String monitorDir = apps.getFirst().env().get("BANYAN_MONITOR_OUT");
        jobs.put(jobId, new RunningJob(s, grant.placement(), command, ranks, new HeadAction.ForwardStdin[1], monitorDir));
        s.jobs.add(jobId);
        s.send(new ClientMessage.JobAccepted(jobId, ranks));
        say.accept("job " + jobId + " of client " + s.id + ": " + ranks + " rank(s) of " + command);
        return new HeadEvent.Submit(job, settings.forJob(run.timeoutMillis()));
    }

    /**
     * MPI_Comm_spawn from a rank of a running job: the new job is placed on free slots like a
     * job of the same client (over all of them when the parent oversubscribes and none are
     * free), and belongs to that client: its output goes there, and the client's job ends with
     * the last job of its family.
     */
    HeadEvent spawn(JobDescription parent, OverlayMessage.SpawnRequest request) {
        RunningJob p = jobs.get(parent.jobId());
        int ranks;
        try {
            ranks = org.banyan.core.head.SpawnPlacement.ranks(request.apps());
        } catch (IllegalArgumentException e) {
            return new HeadEvent.SpawnAnswer(request, null, null, e.getMessage());
        }
        if (p == null) {
            return new HeadEvent.SpawnAnswer(request, null, null, "the spawning job is ending");
        }
        if (!request.hosts().isEmpty()) {
            return new HeadEvent.SpawnAnswer(request, null, null, "a DVM places spawned jobs on its free slots itself; "
                    + "MPI_Info \"host\" does not apply");
        }
        int free = scheduler.freeCores();
        JobSlots.Grant grant = slots.grant(numbers.peek(), ranks, parent.placement(), parent.oversubscribe());
        if (grant == null) {
            return new HeadEvent.SpawnAnswer(request, null, null, "MPI_Comm_spawn asks for " + ranks + " process"
                    + (ranks == 1 ? "" : "es") + " but only " + free + " of the DVM's " + hosts.totalSlots()
                    + " slots are free; add --oversubscribe");
        }
        int jobId = numbers.take();
        JobDescription child;
        try {
            child = org.banyan.core.head.SpawnPlacement.child(parent, jobId, request.apps(), grant.nodes(),
                    grant.placement() == null, grant.binding().heldCores());
        } catch (IllegalArgumentException e) {
            slots.release(jobId, grant.placement());
            return new HeadEvent.SpawnAnswer(request, null, null, e.getMessage());
        }
        String command = String.join(" ", request.apps().stream().map(AppContext::executable).toList());
        jobs.put(jobId, new RunningJob(p.owner(), grant.placement(), command, ranks, new HeadAction.ForwardStdin[1], -1, true, null));
        p.owner().jobs.add(jobId);
        say.accept("job " + jobId + " spawned by job " + parent.jobId() + ": " + ranks + " rank(s) of " + command);
        return new HeadEvent.SpawnAnswer(request, child, settings.forJob(0), null);
    }

    /** What the head core says of job {@code jobId}: to its client (or, for an MPI task, to its files). */
    void forJob(int jobId, HeadAction a) {
        RunningJob j = jobs.get(jobId);
        if (j == null) {
            tasks.jobs().forJob(jobId, a); // an MPI task's
            return;
        }
        int shown = j.queueId() >= 0 ? j.queueId() : jobId;
        switch (a) {
            case HeadAction.EmitOutput(int rank, int stream, byte[] data) ->
                    j.owner().send(new ClientMessage.JobOutput(shown, queue.rankOffsetOf(jobId) + rank, stream, data));
            case HeadAction.Report(String line) -> j.owner().send(new ClientMessage.JobReport(shown, line));
            case HeadAction.RankEnded(int rank, int ignored) -> queue.rankEnded(jobId, rank);
            case HeadAction.ForwardStdin f -> j.stdinTarget()[0] = f;
            case HeadAction.StdinCredit(long limit) -> j.owner().send(new ClientMessage.StdinCredit(shown, limit));
            default -> throw new IllegalStateException("not a job's action: " + a);
        }
    }

    /** @param note why, when its status does not say (the DVM stopped); an MPI task's failure carries it */
    void ended(int jobId, int exitStatus, String note) {
        RunningJob j = jobs.remove(jobId);
        if (j == null) {
            tasks.jobs().jobEnded(jobId, exitStatus, note).forEach(follow); // an MPI task's
            return;
        }
        slots.release(jobId, j.placement());
        j.owner().jobs.remove(jobId);
        if (j.spawned()) {
            say.accept("job " + jobId + " (spawned) ended with status " + exitStatus);
            return; // its client hears of its family's end
        }
        if (queue.ended(jobId, j.owner(), exitStatus)) {
            return;
        }
        j.owner().send(new ClientMessage.JobEnded(jobId, exitStatus));
        say.accept("job " + jobId + " ended with status " + exitStatus);
    }

    /** Adds, for each host a running job of {@code run --dvm} (or spawned) holds cores on, "job ID (N cores)". */
    void holders(Map<Integer, List<String>> byHost) {
        for (Map.Entry<Integer, RunningJob> e : jobs.entrySet()) {
            Placement p = e.getValue().placement();
            if (p == null) {
                continue;
            }
            for (Placement.Share sh : p.shares()) {
                byHost.computeIfAbsent(sh.node(), k -> new ArrayList<>()).add("job " + e.getKey() + " (" + sh.cores() + " core"
                        + (sh.cores() == 1 ? "" : "s") + ")");
            }
        }
    }

    /** The running jobs whose ranks write live traffic counters (run with --monitor), and where. */
    List<DvmSnapshot.Monitored> monitored() {
        List<DvmSnapshot.Monitored> out = new ArrayList<>();
        jobs.forEach((id, j) -> {
            if (j.monitorDir() != null) {
                out.add(new DvmSnapshot.Monitored(id, j.ranks(), j.monitorDir()));
            }
        });
        return out;
    }

    /** A client went away: its jobs still running are canceled. */
    List<HeadEvent> cancelAllOf(Client s) {
        List<HeadEvent> out = new ArrayList<>();
        for (int jobId : s.jobs) {
            if (jobs.containsKey(jobId)) {
                out.add(new HeadEvent.CancelJob(jobId, "the client of job " + jobId + " went away; ending its ranks"));
            }
        }
        return out;
    }

    /** The running jobs, for {@code banyan dvm status}. */
    /**
     * One line per job: a queued (malleable) job once, under its queue id, with the ranks it has
     * now. Its expansions run as DVM jobs of their own, and were listed as more jobs, while a
     * shrunk job showed the ranks it started with.
     */
    List<ClientMessage.JobStatus> status() {
        List<ClientMessage.JobStatus> running = new ArrayList<>();
        java.util.Set<Integer> queued = new java.util.HashSet<>();
        for (Map.Entry<Integer, RunningJob> e : new java.util.TreeMap<>(jobs).entrySet()) {
            RunningJob j = e.getValue();
            if (j.queueId() < 0) {
                running.add(new ClientMessage.JobStatus(e.getKey(), j.ranks(), j.command()));
            } else if (queued.add(j.queueId())) {
                int now = queue.ranksOf(j.queueId());
                running.add(new ClientMessage.JobStatus(j.queueId(), now >= 0 ? now : j.ranks(), j.command()));
            }
        }
        return running;
    }
}
