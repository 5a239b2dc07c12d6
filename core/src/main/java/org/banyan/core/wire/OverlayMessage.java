package org.banyan.core.wire;

import java.util.Map;
import org.banyan.core.job.JobDescription;
import org.banyan.core.tree.TopologySpec;

/**
 * Messages on the overlay between the head and the daemons. Encoded only by {@link OverlayCodec}.
 *
 * <p>Messages about one job's ranks, keys or fences carry its {@code jobId}: a daemon of a
 * persistent DVM runs several jobs at once ({@code banyan run} has one, job 1). Job
 * {@value #TASKS} stands for a DVM's tasks, whose ids take the place of ranks.
 */
public sealed interface OverlayMessage {
    /** The job id of tasks: their ends are {@link RankExited}s of this job, the task id as the rank. */
    int TASKS = 0;


    /**
     * Child to parent, first message on a new connection. {@code contact} is where the daemon
     * listens for its own children ({@code host:port}).
     */
    record DaemonHello(int daemonId, String host, long pid, String contact) implements OverlayMessage {}

    /**
     * Parent to a child that said hello: the tree's shape and the hosts of every daemon below
     * that child (daemon id to host name). The child starts its own children from it.
     */
    record Adopt(TopologySpec topology, int vertices, Map<Integer, String> hostsBelow, TopologySpec routing)
            implements OverlayMessage {
        /** Routing along the spawn tree itself. */
        public Adopt(TopologySpec topology, int vertices, Map<Integer, String> hostsBelow) {
            this(topology, vertices, hostsBelow, topology);
        }
    }

    /**
     * First message on a routing-overlay link that is not also a spawn-tree link: the dialing
     * daemon names itself to its routing parent (found in the phase-2 contacts).
     */
    record PeerHello(int daemonId) implements OverlayMessage {}

    /**
     * A message between two daemons (or a daemon and the head, id -1), routed hop by hop along
     * the routing topology. A hop whose link is not open yet holds it until it is.
     */
    sealed interface Routed extends OverlayMessage {
        /** The job whose keys or names it is about. */
        int jobId();

        int from();

        int to();
    }

    /** Routed: daemon {@code from} asks {@code to}, the owner, for a key one of its ranks put (lazy modex). */
    record KvsFetch(int jobId, int from, int to, int request, String key) implements Routed {}

    /** Routed: the answer to {@link KvsFetch}; {@code value} is null when the owner has no such key. */
    record KvsFetched(int jobId, int from, int to, int request, String key, String value) implements Routed {}

    /**
     * Routed to the head (to = -1): a rank's request to the job's name service. {@code op}: 0
     * publish {@code name} at {@code port}, 1 unpublish it, 2 look it up ({@code port} empty).
     */
    record NameRequest(int jobId, int from, int to, int request, int op, String name, String port) implements Routed {
        /**
         * Ops for the DVM's resource manager, carried the same way (a head service). A DMR check:
         * {@code name} is "min,max,factor,preferred" (hosts), the reply
         * "expand|shrink|none,ranks,generation". A world join: {@code name} is
         * "generation,seq,rank,size", {@code port} the rank's card; the reply, once every rank of
         * the new world joined, all cards in rank order, each followed by a form feed.
         */
        public static final int RESIZE_CHECK = 3;
        public static final int JOIN = 4;
        /**
         * A lookup that waits until the name is published (PMIx's {@code PMIX_WAIT}); {@code port}
         * is how many seconds it may wait ({@code PMIX_TIMEOUT}), empty for as long as its job runs.
         */
        public static final int LOOKUP_WAIT = 5;
        /**
         * PMIx connect or disconnect: {@code name} lists the participants
         * (a kind and {@code namespace:rank,...}; see the head's ConnectRendezvous); the reply comes once every
         * daemon that hosts one of them asked with the same list.
         */
        public static final int CONNECT = 6;
        /** The op of the {@link NameReply} to a {@link SpawnRequest}: "childJobId namespace" when ok. */
        public static final int SPAWN = 7;
    }

    /**
     * Routed to the head: a rank of {@code jobId} spawns a new job of these applications
     * (MPI_Comm_spawn through PMIx), on the {@code hosts} named (MPI_Info "host"; empty:
     * anywhere). Answered by a {@link NameReply} of op {@link NameRequest#SPAWN}.
     */
    record SpawnRequest(int jobId, int from, int to, int request, java.util.List<org.banyan.core.job.AppContext> apps,
                        java.util.List<String> hosts) implements Routed {
        public SpawnRequest {
            apps = java.util.List.copyOf(apps);
            hosts = java.util.List.copyOf(hosts);
        }

        /** Anywhere. */
        public SpawnRequest(int jobId, int from, int to, int request, java.util.List<org.banyan.core.job.AppContext> apps) {
            this(jobId, from, to, request, apps, java.util.List.of());
        }
    }

    /** Routed from the head: {@code ok}, and then the port for a lookup; otherwise why not. */
    record NameReply(int jobId, int from, int to, int request, int op, boolean ok, String portOrReason) implements Routed {}

    /**
     * One answer to several requests of job {@code jobId}'s ranks on daemon {@code to}: a world's
     * join answers every rank with all the world's cards, so each daemon gets them once (not once
     * per rank) and hands them to each of its ranks.
     */
    record NameReplies(int jobId, int from, int to, java.util.List<Integer> requests, int op, boolean ok, String portOrReason)
            implements Routed {
        public NameReplies {
            requests = java.util.List.copyOf(requests);
        }
    }

    /**
     * Routed from the head (-1) to daemon {@code to}: start these tasks (a DVM's task agent). Their
     * ends come back as {@link RankExited} of job {@link #TASKS}, the task id as the rank.
     */
    record RunTasks(int from, int to, java.util.List<org.banyan.core.pilot.TaskSpec> tasks) implements Routed {
        public RunTasks {
            tasks = java.util.List.copyOf(tasks);
        }

        @Override
        public int jobId() {
            return TASKS;
        }
    }

    /**
     * Routed from the head to daemon {@code to}: signal these tasks (cancel: SIGTERM, then
     * SIGKILL). A task still queued there is dropped instead and its end goes up with status
     * 128+signal; signal 0 only does that (a withdrawal: nothing happens to a started task).
     */
    record SignalTasks(int from, int to, java.util.List<Integer> taskIds, int signal) implements Routed {
        public SignalTasks {
            taskIds = java.util.List.copyOf(taskIds);
        }

        @Override
        public int jobId() {
            return TASKS;
        }
    }

    /**
     * Up the tree: the contacts of every daemon of the sender's subtree (phase 2, gather), and the
     * GPUs of those that have any, by daemon, as a {@code CUDA_VISIBLE_DEVICES} list ({@code 0,1}):
     * a DVM's head learns each host's devices on the way its contacts already come.
     */
    record Contacts(Map<Integer, String> contacts, Map<Integer, String> gpus) implements OverlayMessage {
        /** Contacts of daemons without GPUs. */
        public Contacts(Map<Integer, String> contacts) {
            this(contacts, Map.of());
        }
    }

    /** Down the tree: the contacts of every daemon (phase 2, flood). */
    record AllContacts(Map<Integer, String> contacts) implements OverlayMessage {}

    /** Down the tree: report {@link DaemonStats} ({@code --report-launch}, at the end of the job). */
    record CollectStats() implements OverlayMessage {}

    /** Up the tree: the stats of every daemon of the sender's subtree, gathered like contacts. */
    record Stats(Map<Integer, DaemonStats> stats) implements OverlayMessage {}

    /** Up the tree: a daemon could not be started, or its link broke. */
    record DaemonFailed(int daemonId, String host, String reason) implements OverlayMessage {}

    /** Head to daemon: the application description; the daemon maps and starts its own ranks. */
    record LaunchJob(JobDescription job) implements OverlayMessage {}

    /**
     * Daemon to head: a rank has ended and all of its output has been forwarded before this
     * message. {@code status} is the exit status (128+N when killed by signal N); {@code note}
     * is empty, or says why the rank could not start. {@code startMicros}/{@code endMicros}: when
     * its process was created and seen to end (epoch, its daemon's clock; 0 when not known), for
     * a task's profile.
     */
    record RankExited(int jobId, int rank, int status, String note, long startMicros, long endMicros, boolean signaled)
            implements OverlayMessage {
        /** An end whose wait status is not known: signaled as {@code Signals.looksSignaled} says. */
        public RankExited(int jobId, int rank, int status, String note, long startMicros, long endMicros) {
            this(jobId, rank, status, note, startMicros, endMicros, org.banyan.core.daemon.Signals.looksSignaled(status));
        }

        public RankExited(int jobId, int rank, int status, String note) {
            this(jobId, rank, status, note, 0, 0);
        }
    }

    /** Rank ends batched by a daemon for its subtree, in the order it learnt them. */
    record RanksExited(java.util.List<RankExited> exits) implements OverlayMessage {
        public RanksExited {
            exits = java.util.List.copyOf(exits);
        }
    }

    /** Daemon to head: bytes a rank wrote; stream 1 is stdout, 2 is stderr. */
    record Output(int jobId, int rank, int stream, byte[] data) implements OverlayMessage {}

    /**
     * Up the tree: output chunks of several ranks (or one rank's several chunks) in one frame, in
     * the order they were produced; what a daemon sends when output queues up behind its link.
     */
    record OutputBatch(java.util.List<Output> chunks) implements OverlayMessage {
        public OutputBatch {
            chunks = java.util.List.copyOf(chunks);
        }
    }

    /** Head to daemon: bytes for a rank's stdin; an empty array closes it. */
    record StdinData(int jobId, int rank, byte[] data) implements OverlayMessage {}

    /**
     * Daemon to head (relayed up the tree): rank {@code rank}'s stdin writer has handed it
     * {@code bytes} bytes of stdin in all, or {@link #STDIN_CLOSED}: it takes no more (it closed
     * its stdin, or ended). The head's reader keeps within a window of the slowest reader.
     */
    record StdinTaken(int jobId, int rank, long bytes) implements OverlayMessage {
        public static final long STDIN_CLOSED = -1;
    }

    /** Head to daemon: deliver a signal to every local rank (user signal forwarding). */
    record SignalRanks(int jobId, int signal) implements OverlayMessage {}

    /** Head to daemon: end every local rank, SIGTERM first and SIGKILL after the grace period. */
    record TerminateJob(int jobId, int graceMillis) implements OverlayMessage {}

    /** Head to daemon: SIGKILL every local rank now. */
    record KillJob(int jobId) implements OverlayMessage {}

    /** Daemon to head: a rank asked the job to abort (PMI abort, i.e. MPI_Abort). */
    record AbortRequest(int jobId, int rank, int exitCode, String message) implements OverlayMessage {}

    /**
     * Daemon to head: a rank of a job of more than one rank started MPI on its own, a singleton
     * of one rank: it loaded {@code library} and never reached the daemon's PMI or PMIx server
     * ({@code evidence} says how that was seen). The job fails: its ranks would each compute alone.
     */
    record RankAlone(int jobId, int rank, String library, String evidence) implements OverlayMessage {}

    /**
     * Daemon to head: a rank of a job of more than one rank reached the PMI or PMIx server and
     * exited with status 0 without finalizing it (MPI_Finalize, a banyan-comm world's close):
     * the job fails, as under mpirun and Hydra; its other ranks would wait for it for ever.
     */
    record RankUnfinalized(int jobId, int rank) implements OverlayMessage {}

    /**
     * Up the tree: every rank of the sender's subtree entered fence {@code seq}; the puts made
     * there since the last one (full modex), or the keys put and the daemon holding each (lazy
     * modex). One message per link and fence, whatever the number of ranks.
     */
    record FenceEnter(int jobId, int daemonId, int seq, Map<String, String> puts, Map<String, Integer> owners)
            implements OverlayMessage {
        public FenceEnter(int jobId, int daemonId, int seq, Map<String, String> puts) {
            this(jobId, daemonId, seq, puts, Map.of());
        }
    }

    /**
     * Down the tree: fence {@code seq} is complete; every put of every daemon for it (full
     * modex), or only which daemon holds each key put (lazy modex: values move on first get).
     */
    record FenceRelease(int jobId, int seq, Map<String, String> puts, Map<String, Integer> owners)
            implements OverlayMessage {
        public FenceRelease(int jobId, int seq, Map<String, String> puts) {
            this(jobId, seq, puts, Map.of());
        }
    }

    /** Head to daemon: the job is over, exit. */
    record Shutdown() implements OverlayMessage {}

    /**
     * Flooded down a DVM's tree: job {@code jobId} is over everywhere; each daemon lets go of what
     * it held for it (its state, PMI socket, process table, PMIx namespace and files).
     */
    record ForgetJob(int jobId) implements OverlayMessage {}

    /**
     * Routed from the head to daemon {@code to}: its host goes back to the batch system (a DVM
     * shrinking its allocation); end what runs there and exit, as on {@link Shutdown}. The head
     * sends it to daemons whose whole subtree leaves, and takes their ends as no loss.
     */
    record Leave(int from, int to) implements Routed {
        @Override
        public int jobId() {
            return -1;
        }
    }

    /**
     * Routed from a DVM's head to daemon {@code to}: keep {@code count} JVMs of {@code program}
     * started and waiting on that host, so that an expansion of queued job {@code pool} placed
     * there takes them instead of starting JVMs ({@link org.banyan.core.daemon.WarmProgram}).
     */
    record KeepWarm(int from, int to, int pool, int count, org.banyan.core.daemon.WarmProgram program) implements Routed {
        @Override
        public int jobId() {
            return TASKS;
        }
    }

    /** Routed from a DVM's head to daemon {@code to}: end the waiting JVMs kept for queued job {@code pool}. */
    record DropWarm(int from, int to, int pool) implements Routed {
        @Override
        public int jobId() {
            return TASKS;
        }
    }
}
