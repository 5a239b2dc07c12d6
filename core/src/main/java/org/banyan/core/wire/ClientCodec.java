package org.banyan.core.wire;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskDependency;
import org.banyan.core.pilot.TaskRequest;

/**
 * The one codec of {@link ClientMessage}: frames as on the overlay (a u32 length, then a type
 * byte and the body; primitives as in {@link OverlayCodec}'s Javadoc), sent over the DVM's
 * client socket.
 *
 * <pre>
 * type                body
 *  1 HELLO           secret:string client:string protocol:u32 (absent: 0, a client from before the number)
 *                    nonce:string (absent: empty, a client from before protocol 11);
 *                    from protocol 10 "secret" is the proof of the secret against CHALLENGE's nonce, and
 *                    from protocol 11 "nonce" the client's own, which WELCOME's proof answers
 * 36 CHALLENGE       nonce:string (the DVM's first message to every connection, from protocol 10)
 *  2 RUN_JOB         apps:u32 app{apps} mapping:u8 oversubscribe:u8 stdinRank:u32 (as OverlayCodec's LAUNCH_JOB) launchDir:string modex:u8
 *                    timeoutMillis:u64 placement (OverlayCodec's; a rankfile part is refused by the DVM)
 *                    wireUp:u8 (0: PMI-1/PMI-2, 1: PMIx, 2: both side by side; WireUp's order)
 *                    app := executable:string args:list count:u32 env:map workdir:string
 *  3 STDIN           jobId:u32 data:bytes
 *  4 SIGNAL_JOB      jobId:u32 signal:u32
 *  5 STATUS_REQUEST  (empty)
 *  6 STOP            (empty)
 *  7 SUBMIT_TASKS    n:u32 task{n}
 *                    task := uid:string executable:string args:list env:map sandbox:string stdout:string
 *                            stderr:string stdin:string preExec:list postExec:list ranks:u32 coresPerRank:u32
 *                            gpusPerRank:u32 colocate:string exclusive:u8 priority:u32 mpi:u8
 *                            timeoutMillis:u64 restartable:u8 dependencies:u32 (kind:u8 taskId:u32){dependencies}
 *                    kind: TaskDependency.Kind's ordinal (0 after, 1 afterany, 2 afterok, 3 afternotok)
 *  8 CANCEL_TASKS    n:u32 taskId:u32{n}
 *  9 DETACH          (empty)
 * 10 WATCH_TASKS     n:u32 taskId:u32{n}
 * 11 QUEUE_JOB       minNodes:u32 maxNodes:u32 preferredNodes:u32 factor:u32 walltimeMillis:u64
 *                    ranksPerNode:u32 resizeTimeoutMillis:u64 run:(RUN_JOB's body) warm:u8 (1: JVMs kept
 *                    waiting on idle hosts for its expansions; absent: 0)
 * 12, 13           (unused: RUN_BAG and SIGNAL_BAG until protocol 8)
 * 14 OPEN_DASHBOARD  bind:string port:u32
 * 30 JOB_QUEUED      queueId:u32 ahead:u32 (-1 as u32: started at once)
 * 28 TASKS_ACCEPTED  n:u32 taskId:u32{n}
 * 29 TASK_UPDATES    n:u32 (taskId:u32 state:u8 timeMicros:u64 exitCode:u32 detail:string execStartMicros:u64
 *                    execEndMicros:u64){n}
 * 20 WELCOME         hosts:u32 slots:u32 proof:string (absent: empty; from protocol 11 the DVM's proof of the
 *                    secret against HELLO's nonce and its own CHALLENGE's: the client checks it before it sends more)
 * 21 JOB_ACCEPTED    jobId:u32 ranks:u32
 * 22 JOB_REJECTED    reason:string
 * 23 JOB_OUTPUT      jobId:u32 rank:u32 stream:u8 data:bytes
 * 24 JOB_REPORT      jobId:u32 line:string
 * 25 JOB_ENDED       jobId:u32 status:u32
 * 27 REFUSED         reason:string
 * 31, 32           (unused: BAG_OUTPUT and BAG_ENDED until protocol 8)
 * 34 DASHBOARD_AT    bind:string port:u32 error:string (empty: open)
 * 35 CLOSING         why:string (the DVM stops and is about to close the connection)
 * 33 STDIN_CREDIT    jobId:u32 limit:u64 (bytes of stdin the client may have sent in all; -1: stop reading)
 * 26 STATUS          pid:u64 hosts:u32 (name:string slots:u32 inUse:u32 state:u8 gpus:u32 gpusInUse:u32){hosts}
 *                    state: 0 lost, 1 up, 2 given back, 3 vacant
 *                    jobs:u32 (jobId:u32 ranks:u32 command:string){jobs}
 *                    queued:u32 (queueId:u32 minNodes:u32 maxNodes:u32 command:string){queued}
 *                    waiting:u32 running:u32 kept:u32   tasks: not started, running, finished and kept for wait
 * </pre>
 */
public final class ClientCodec {
    /**
     * The version of the messages above, sent in HELLO: raised whenever one of them changes its
     * layout or a message is added that an older DVM would not know. 1: RUN_BAG and SIGNAL_BAG.
     * 2: STATUS counts tasks, RUN_BAG carries the -x values. 3: a task has a stdin file, STATUS a host's GPUs.
     * 4: a task has dependencies. 5: STDIN_CREDIT. 6: a job's ranks may be served PMI and PMIx side by side.
     * 7: OPEN_DASHBOARD and DASHBOARD_AT. 8: the bag messages are gone (the DVM runs no client
     * code: a client sends its tasks as SUBMIT_TASKS). 9: CLOSING. 10: CHALLENGE, and HELLO
     * proves the secret instead of carrying it. 11: HELLO carries the client's nonce and WELCOME
     * the DVM's proof against it, so a client knows it talks to the DVM before it sends its work.
     */
    public static final int PROTOCOL = 11;
    static final int HELLO = 1;
    static final int RUN_JOB = 2;
    static final int STDIN = 3;
    static final int SIGNAL_JOB = 4;
    static final int STATUS_REQUEST = 5;
    static final int STOP = 6;
    static final int SUBMIT_TASKS = 7;
    static final int CANCEL_TASKS = 8;
    static final int DETACH = 9;
    static final int WATCH_TASKS = 10;
    static final int QUEUE_JOB = 11;
    static final int OPEN_DASHBOARD = 14;
    static final int DASHBOARD_AT = 34;
    static final int CLOSING = 35;
    static final int CHALLENGE = 36;
    static final int JOB_QUEUED = 30;
    static final int TASKS_ACCEPTED = 28;
    static final int TASK_UPDATES = 29;
    static final int WELCOME = 20;
    static final int JOB_ACCEPTED = 21;
    static final int JOB_REJECTED = 22;
    static final int JOB_OUTPUT = 23;
    static final int JOB_REPORT = 24;
    static final int JOB_ENDED = 25;
    static final int STATUS = 26;
    static final int REFUSED = 27;
    static final int STDIN_CREDIT = 33;

    private ClientCodec() {}

    private static void ids(WireWriter w, List<Integer> ids) {
        w.u32(ids.size());
        for (int id : ids) {
            w.u32(id);
        }
    }

    private static List<Integer> ids(ByteBuffer b) {
        int n = OverlayCodec.count(b);
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(b.getInt());
        }
        return out;
    }

    private static void runJob(WireWriter w, ClientMessage.RunJob m) {
        w.u32(m.apps().size());
        for (AppContext app : m.apps()) {
            w.string(app.executable()).list(app.args()).u32(app.count()).map(app.env()).string(app.workdir());
        }
        w.u8(WireCodes.MAPPING.code(m.mapping())).u8(m.oversubscribe() ? 1 : 0).u32(m.stdinRank()).string(m.launchDir())
                .u8(WireCodes.MODEX.code(m.modex())).u64(m.timeoutMillis());
        JobWire.writePlacement(w, m.placement());
        w.u8(WireCodes.WIRE_UP.code(m.wireUp()));
    }

    private static ClientMessage.RunJob runJob(ByteBuffer b) {
        int n = OverlayCodec.count(b);
        List<AppContext> apps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            apps.add(new AppContext(OverlayCodec.string(b), OverlayCodec.list(b), b.getInt(), OverlayCodec.map(b),
                    OverlayCodec.string(b)));
        }
        MappingPolicy mapping = WireCodes.MAPPING.of(b.get());
        boolean oversubscribe = b.get() != 0;
        int stdinRank = b.getInt();
        String launchDir = OverlayCodec.string(b);
        Modex modex = WireCodes.MODEX.of(b.get());
        long timeout = b.getLong();
        org.banyan.core.job.RankPlacement placement = JobWire.readPlacement(b);
        return new ClientMessage.RunJob(apps, mapping, oversubscribe, stdinRank, launchDir, modex, timeout, placement,
                WireCodes.WIRE_UP.of(b.get()));
    }

    /** A whole frame, length prefix included. */
    public static byte[] encode(ClientMessage message) {
        WireWriter w = new WireWriter();
        w.u32(0);
        switch (message) {
            case ClientMessage.Hello m -> w.u8(HELLO).string(m.secret()).string(m.client()).u32(m.protocol()).string(m.nonce());
            case ClientMessage.RunJob m -> runJob(w.u8(RUN_JOB), m);
            case ClientMessage.QueueJob m -> {
                runJob(w.u8(QUEUE_JOB).u32(m.minNodes()).u32(m.maxNodes()).u32(m.preferredNodes())
                        .u32(m.factor()).u64(m.walltimeMillis()).u32(m.ranksPerNode()).u64(m.resizeTimeoutMillis()), m.run());
                w.u8(m.warm() ? 1 : 0);
            }
            case ClientMessage.JobQueued m -> w.u8(JOB_QUEUED).u32(m.queueId()).u32(m.ahead());
            case ClientMessage.Stdin m -> w.u8(STDIN).u32(m.jobId()).bytes(m.data());
            case ClientMessage.SignalJob m -> w.u8(SIGNAL_JOB).u32(m.jobId()).u32(m.signal());
            case ClientMessage.StatusRequest m -> w.u8(STATUS_REQUEST);
            case ClientMessage.Stop m -> w.u8(STOP);
            case ClientMessage.SubmitTasks m -> {
                w.u8(SUBMIT_TASKS).u32(m.tasks().size());
                for (TaskRequest t : m.tasks()) {
                    w.string(t.uid()).string(t.executable()).list(t.args()).map(t.env()).string(t.sandbox())
                            .string(t.stdout()).string(t.stderr()).string(t.stdin()).list(t.preExec()).list(t.postExec())
                            .u32(t.slots().ranks()).u32(t.slots().coresPerRank()).u32(t.slots().gpusPerRank())
                            .string(t.slots().colocate()).u8(t.slots().exclusive() ? 1 : 0).u32(t.priority())
                            .u8(t.mpi() ? 1 : 0).u64(t.timeoutMillis()).u8(t.restartable() ? 1 : 0)
                            .u32(t.dependencies().size());
                    for (TaskDependency d : t.dependencies()) {
                        w.u8(WireCodes.DEPENDENCY.code(d.kind())).u32(d.taskId());
                    }
                }
            }
            case ClientMessage.CancelTasks m -> ids(w.u8(CANCEL_TASKS), m.taskIds());
            case ClientMessage.Detach m -> w.u8(DETACH);
            case ClientMessage.WatchTasks m -> ids(w.u8(WATCH_TASKS), m.taskIds());
            case ClientMessage.TasksAccepted m -> ids(w.u8(TASKS_ACCEPTED), m.taskIds());
            case ClientMessage.TaskUpdates m -> {
                w.u8(TASK_UPDATES).u32(m.updates().size());
                for (ClientMessage.TaskUpdate u : m.updates()) {
                    w.u32(u.taskId()).u8(WireCodes.TASK_STATE.code(u.state())).u64(u.timeMicros()).u32(u.exitCode()).string(u.detail())
                            .u64(u.execStartMicros()).u64(u.execEndMicros());
                }
            }
            case ClientMessage.OpenDashboard m -> w.u8(OPEN_DASHBOARD).string(m.bind()).u32(m.port());
            case ClientMessage.DashboardAt m -> w.u8(DASHBOARD_AT).string(m.bind()).u32(m.port()).string(m.error());
            case ClientMessage.StdinCredit m -> w.u8(STDIN_CREDIT).u32(m.jobId()).u64(m.limit());
            case ClientMessage.Refused m -> w.u8(REFUSED).string(m.reason());
            case ClientMessage.Closing m -> w.u8(CLOSING).string(m.why());
            case ClientMessage.Challenge m -> w.u8(CHALLENGE).string(m.nonce());
            case ClientMessage.Welcome m -> w.u8(WELCOME).u32(m.hosts()).u32(m.slots()).string(m.proof());
            case ClientMessage.JobAccepted m -> w.u8(JOB_ACCEPTED).u32(m.jobId()).u32(m.ranks());
            case ClientMessage.JobRejected m -> w.u8(JOB_REJECTED).string(m.reason());
            case ClientMessage.JobOutput m -> w.u8(JOB_OUTPUT).u32(m.jobId()).u32(m.rank()).u8(m.stream()).bytes(m.data());
            case ClientMessage.JobReport m -> w.u8(JOB_REPORT).u32(m.jobId()).string(m.line());
            case ClientMessage.JobEnded m -> w.u8(JOB_ENDED).u32(m.jobId()).u32(m.status());
            case ClientMessage.Status m -> {
                w.u8(STATUS).u64(m.pid()).u32(m.hosts().size());
                for (ClientMessage.HostStatus h : m.hosts()) {
                    w.string(h.name()).u32(h.slots()).u32(h.slotsInUse()).u8(WireCodes.HOST_STATE.code(h.state())).u32(h.gpus()).u32(h.gpusInUse());
                }
                w.u32(m.jobs().size());
                for (ClientMessage.JobStatus j : m.jobs()) {
                    w.u32(j.jobId()).u32(j.ranks()).string(j.command());
                }
                w.u32(m.queued().size());
                for (ClientMessage.QueuedStatus q : m.queued()) {
                    w.u32(q.queueId()).u32(q.minNodes()).u32(q.maxNodes()).string(q.command());
                }
                w.u32(m.tasks().waiting()).u32(m.tasks().running()).u32(m.tasks().kept());
            }
        }
        byte[] out = w.toArray();
        ByteBuffer.wrap(out).putInt(0, out.length - 4);
        return out;
    }

    /**
     * Decodes one frame body (type and body, without the length prefix).
     *
     * @throws IllegalArgumentException when the bytes are not a valid message
     */
    public static ClientMessage decode(byte[] frame) {
        ByteBuffer b = ByteBuffer.wrap(frame);
        try {
            int type = b.get() & 0xFF;
            ClientMessage m = switch (type) {
                case HELLO -> new ClientMessage.Hello(OverlayCodec.string(b), OverlayCodec.string(b),
                        b.hasRemaining() ? b.getInt() : 0, b.hasRemaining() ? OverlayCodec.string(b) : "");
                case RUN_JOB -> runJob(b);
                case QUEUE_JOB -> new ClientMessage.QueueJob(b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getLong(),
                        b.getInt(), b.getLong(), runJob(b), b.hasRemaining() && b.get() != 0);
                case JOB_QUEUED -> new ClientMessage.JobQueued(b.getInt(), b.getInt());
                case STDIN -> new ClientMessage.Stdin(b.getInt(), OverlayCodec.bytes(b));
                case SIGNAL_JOB -> new ClientMessage.SignalJob(b.getInt(), b.getInt());
                case STATUS_REQUEST -> new ClientMessage.StatusRequest();
                case STOP -> new ClientMessage.Stop();
                case SUBMIT_TASKS -> {
                    int n = OverlayCodec.count(b);
                    List<TaskRequest> tasks = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        String uid = OverlayCodec.string(b);
                        String exe = OverlayCodec.string(b);
                        List<String> args = OverlayCodec.list(b);
                        java.util.Map<String, String> env = OverlayCodec.map(b);
                        String sandbox = OverlayCodec.string(b);
                        String out = OverlayCodec.string(b);
                        String err = OverlayCodec.string(b);
                        String in = OverlayCodec.string(b);
                        List<String> pre = OverlayCodec.list(b);
                        List<String> post = OverlayCodec.list(b);
                        SlotRequest slots = new SlotRequest(b.getInt(), b.getInt(), b.getInt(), OverlayCodec.string(b),
                                b.get() != 0);
                        int priority = b.getInt();
                        boolean mpi = b.get() != 0;
                        long timeout = b.getLong();
                        boolean restartable = b.get() != 0;
                        int deps = OverlayCodec.count(b);
                        List<TaskDependency> dependencies = new ArrayList<>(deps);
                        for (int d = 0; d < deps; d++) {
                            dependencies.add(new TaskDependency(WireCodes.DEPENDENCY.of(b.get()), b.getInt()));
                        }
                        tasks.add(new TaskRequest(uid, exe, args, env, sandbox, out, err, in, pre, post, slots, priority,
                                mpi, timeout, restartable, dependencies));
                    }
                    yield new ClientMessage.SubmitTasks(tasks);
                }
                case CANCEL_TASKS -> new ClientMessage.CancelTasks(ids(b));
                case DETACH -> new ClientMessage.Detach();
                case WATCH_TASKS -> new ClientMessage.WatchTasks(ids(b));
                case TASKS_ACCEPTED -> new ClientMessage.TasksAccepted(ids(b));
                case TASK_UPDATES -> {
                    int n = OverlayCodec.count(b);
                    List<ClientMessage.TaskUpdate> updates = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        updates.add(new ClientMessage.TaskUpdate(b.getInt(), WireCodes.TASK_STATE.of(b.get()), b.getLong(),
                                b.getInt(), OverlayCodec.string(b), b.getLong(), b.getLong()));
                    }
                    yield new ClientMessage.TaskUpdates(updates);
                }
                case OPEN_DASHBOARD -> new ClientMessage.OpenDashboard(OverlayCodec.string(b), b.getInt());
                case DASHBOARD_AT -> new ClientMessage.DashboardAt(OverlayCodec.string(b), b.getInt(), OverlayCodec.string(b));
                case STDIN_CREDIT -> new ClientMessage.StdinCredit(b.getInt(), b.getLong());
                case REFUSED -> new ClientMessage.Refused(OverlayCodec.string(b));
                case CLOSING -> new ClientMessage.Closing(OverlayCodec.string(b));
                case CHALLENGE -> new ClientMessage.Challenge(OverlayCodec.string(b));
                case WELCOME -> new ClientMessage.Welcome(b.getInt(), b.getInt(), b.hasRemaining() ? OverlayCodec.string(b) : "");
                case JOB_ACCEPTED -> new ClientMessage.JobAccepted(b.getInt(), b.getInt());
                case JOB_REJECTED -> new ClientMessage.JobRejected(OverlayCodec.string(b));
                case JOB_OUTPUT -> new ClientMessage.JobOutput(b.getInt(), b.getInt(), b.get() & 0xFF, OverlayCodec.bytes(b));
                case JOB_REPORT -> new ClientMessage.JobReport(b.getInt(), OverlayCodec.string(b));
                case JOB_ENDED -> new ClientMessage.JobEnded(b.getInt(), b.getInt());
                case STATUS -> {
                    long pid = b.getLong();
                    int nh = OverlayCodec.count(b);
                    List<ClientMessage.HostStatus> hosts = new ArrayList<>(nh);
                    for (int i = 0; i < nh; i++) {
                        hosts.add(new ClientMessage.HostStatus(OverlayCodec.string(b), b.getInt(), b.getInt(),
                                WireCodes.HOST_STATE.of(b.get()), b.getInt(), b.getInt()));
                    }
                    int nj = OverlayCodec.count(b);
                    List<ClientMessage.JobStatus> jobs = new ArrayList<>(nj);
                    for (int i = 0; i < nj; i++) {
                        jobs.add(new ClientMessage.JobStatus(b.getInt(), b.getInt(), OverlayCodec.string(b)));
                    }
                    int nq = OverlayCodec.count(b);
                    List<ClientMessage.QueuedStatus> queued = new ArrayList<>(nq);
                    for (int i = 0; i < nq; i++) {
                        queued.add(new ClientMessage.QueuedStatus(b.getInt(), b.getInt(), b.getInt(), OverlayCodec.string(b)));
                    }
                    yield new ClientMessage.Status(pid, hosts, jobs, queued,
                            new ClientMessage.TaskCounts(b.getInt(), b.getInt(), b.getInt()));
                }
                default -> throw new IllegalArgumentException("unknown client message type " + type);
            };
            if (b.hasRemaining()) {
                throw new IllegalArgumentException(b.remaining() + " stray bytes after client message type " + type);
            }
            return m;
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("truncated client message", e);
        } catch (NullPointerException e) {
            // a string or list the message needs came as null (-1): the records refuse it
            throw new IllegalArgumentException("a client message with no value where one is needed", e);
        }
    }
}
