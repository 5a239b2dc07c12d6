package org.banyan.pilot;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.function.FunctionWire;
import org.banyan.pilot.function.FunctionWorker;

/**
 * Function tasks: Java functions run in worker JVMs, their results (or what they threw, as a
 * {@link RemoteFunctionException}) back in this JVM's futures.
 *
 * <p>The workers are ordinary tasks of the pilots (one core each; {@code java} with this JVM's
 * class path running {@link FunctionWorker}), so the agent places them, the profile shows them
 * and cancel ends them. Each dials back to this pool, which feeds it batches of calls: a sender
 * per worker takes its share of what is queued ({@link #fairShare}, up to {@link #MAX_BATCH})
 * and keeps at most two batches in flight, so a worker always has its next batch in its socket
 * while it runs one. Calls queued while every worker is busy therefore travel together, a few
 * long calls still reach every worker, and a lone call goes at once.
 *
 * <p>Futures complete on the pool's reader threads: callbacks attached to them should be short.
 * A worker that dies fails the calls it held; calls still queued go to the others.
 */
public final class FunctionPool implements AutoCloseable {
    static final int MAX_BATCH = 1024;
    private static final int IN_FLIGHT = 2;

    private final TaskManager tasks;
    private final ServerSocket server;
    private final String secret;
    private final FunctionDoor door;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final List<WorkerLink> linked = new CopyOnWriteArrayList<>();
    private final List<Task> workerTasks;
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean closed;
    private volatile String noWorkers;

    private record Pending(FunctionWire.Call call, CompletableFuture<Object> result) {}

    private static final Pending STOP = new Pending(null, null);

    /** Starts {@code workers} worker tasks on the task manager's pilots; calls may be made at once. */
    FunctionPool(TaskManager tasks, int workers) throws IOException {
        if (workers < 1) {
            throw new IllegalArgumentException("a function pool needs at least one worker");
        }
        this.tasks = tasks;
        this.server = new ServerSocket(0, 128);
        byte[] key = new byte[24];
        new SecureRandom().nextBytes(key);
        this.secret = HexFormat.of().formatHex(key);
        String contact = contactHost() + ":" + server.getLocalPort();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<TaskDescription> ds = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            ds.add(new TaskDescription().executable(java)
                    .arguments("-XX:+UseSerialGC", "-Xss512k", "-cp", absoluteClassPath(System.getProperty("java.class.path"),
                            currentDirectory()),
                            FunctionWorker.class.getName())
                    .environment("BANYAN_FN_CONTACT", contact).environment("BANYAN_FN_SECRET", secret));
        }
        tasks.registerCallback(this::workerState);
        this.workerTasks = tasks.submit(ds);
        this.door = new FunctionDoor(server, secret, FunctionDoor.HELLO_MILLIS, this::admit).start();
    }

    /**
     * This JVM's class path with every entry made absolute against {@code cwd}: the workers start
     * in their sandboxes, where {@code java -cp banyan.jar:classes Prog}'s relative entries name
     * nothing (every call failed with ClassNotFoundException). An empty entry is the directory
     * itself, as the JVM reads it; a {@code dir/*} wildcard stays one.
     */
    private static java.nio.file.Path currentDirectory() {
        return java.nio.file.Path.of("").toAbsolutePath();
    }

    static String absoluteClassPath(String classPath, java.nio.file.Path cwd) {
        List<String> out = new ArrayList<>();
        for (String entry : classPath.split(java.io.File.pathSeparator, -1)) {
            if (entry.isEmpty()) {
                out.add(cwd.toString());
            } else if (entry.equals("*") || entry.endsWith("/*")) {
                String dir = entry.substring(0, entry.length() - 1);
                out.add((dir.isEmpty() ? cwd : cwd.resolve(dir).normalize()) + "/*");
            } else {
                out.add(cwd.resolve(entry).normalize().toString());
            }
        }
        return String.join(java.io.File.pathSeparator, out);
    }

    /** Runs {@code fn} in a worker; the future has its result. */
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> submit(SerializableCallable<T> fn) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        enqueue(new Pending(new FunctionWire.Call(ids.incrementAndGet(), FunctionWire.CALLABLE, fn, null), f));
        return (CompletableFuture<T>) (CompletableFuture<?>) f;
    }

    /** Applies {@code fn} to each argument in the workers; the futures are in the arguments' order. */
    @SuppressWarnings("unchecked")
    public <A, R> List<CompletableFuture<R>> map(SerializableFunction<A, R> fn, List<? extends A> args) {
        List<CompletableFuture<R>> out = new ArrayList<>(args.size());
        List<Pending> batch = new ArrayList<>(args.size());
        for (A a : args) {
            CompletableFuture<Object> f = new CompletableFuture<>();
            batch.add(new Pending(new FunctionWire.Call(ids.incrementAndGet(), FunctionWire.APPLY, fn, a), f));
            out.add((CompletableFuture<R>) (CompletableFuture<?>) f);
        }
        for (Pending p : batch) {
            enqueue(p);
        }
        return out;
    }

    /**
     * Waits until {@code n} workers have dialed back and are serving (as Dask's
     * {@code wait_for_workers}); false when the time ran out first or the pool closed.
     */
    public boolean awaitWorkers(int n, java.time.Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (linked) {
            while (!closed && linked.stream().filter(w -> w.alive).count() < n) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                linked.wait(Math.max(1, left / 1_000_000));
            }
            return !closed;
        }
    }

    /** The worker tasks, for their states and sandboxes. */
    public List<Task> workers() {
        return workerTasks;
    }

    private void enqueue(Pending p) {
        String none = noWorkers;
        if (closed || none != null) {
            p.result().completeExceptionally(new IllegalStateException(closed ? "the function pool is closed" : none));
            return;
        }
        queue.add(p);
    }

    /**
     * How many of {@code waiting} queued calls one batch takes: an even share of them over every
     * worker's batches in flight, so that a map over a few long calls is spread over the workers
     * instead of going whole to the first that asks; at most {@link #MAX_BATCH}, at least one.
     */
    int fairShare(int waiting) {
        int workers = Math.max(1, workerTasks == null ? 1 : workerTasks.size());
        int share = (waiting + workers * IN_FLIGHT - 1) / (workers * IN_FLIGHT);
        return Math.clamp(share, 1, MAX_BATCH);
    }

    private static String contactHost() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (IOException e) {
            return "127.0.0.1";
        }
    }

    /** A worker that proved the secret ({@link FunctionDoor}): it serves from now on. */
    private void admit(Socket s, DataInputStream in, long pid) throws IOException {
        if (closed) { // it proved the secret as the pool closed: its end is the pool's
            s.close();
            return;
        }
        WorkerLink w = new WorkerLink(s, in, pid);
        linked.add(w);
        w.start();
        synchronized (linked) {
            linked.notifyAll();
        }
    }

    /** A worker task ended: when no worker is left, or none ever came, queued calls cannot run. */
    private void workerState(Task t, TaskState state) {
        if (!state.isFinal() || workerTasks == null || !workerTasks.contains(t) || closed) {
            return;
        }
        boolean anyLeft = workerTasks.stream().anyMatch(w -> !w.state().isFinal());
        if (!anyLeft && linked.stream().noneMatch(w -> w.alive)) {
            noWorkers = "no function worker is running (the last, " + t.uid() + ", ended " + state
                    + (t.detail().isEmpty() ? "" : ": " + t.detail()) + ")";
            failQueued(noWorkers);
        }
    }

    private void failQueued(String why) {
        List<Pending> left = new ArrayList<>();
        queue.drainTo(left);
        for (Pending p : left) {
            if (p != STOP) {
                p.result().completeExceptionally(new IllegalStateException(why));
            }
        }
    }

    /** Whether {@link #close} was called. */
    boolean isClosed() {
        return closed;
    }

    /** Tells the workers to end, fails what did not run, and ends the worker tasks that are left. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        door.close();
        synchronized (linked) {
            linked.notifyAll();
        }
        for (int i = 0; i < linked.size(); i++) {
            queue.add(STOP);
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        for (WorkerLink w : linked) {
            w.awaitEnd(2000);
        }
        failQueued("the function pool is closed");
        try { // told to stop, the workers exit 0: let their ends arrive before cancelling stragglers
            tasks.waitTasks(workerTasks, java.util.Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tasks.cancel(workerTasks.stream().filter(t -> !t.state().isFinal()).toList());
    }

    /** One worker's connection: a sender that feeds it batches, a reader that completes their futures. */
    private final class WorkerLink {
        private final Socket socket;
        private final DataInputStream in;
        private final long pid;
        private final Semaphore window = new Semaphore(IN_FLIGHT);
        private final ArrayDeque<List<Pending>> inFlight = new ArrayDeque<>();
        private volatile boolean alive = true;
        private Thread sender;
        private Thread reader;

        WorkerLink(Socket socket, DataInputStream in, long pid) {
            this.socket = socket;
            this.in = in;
            this.pid = pid;
        }

        void start() throws IOException {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
            sender = Thread.ofPlatform().daemon().name("fn-send-" + pid).start(() -> send(out));
            reader = Thread.ofPlatform().daemon().name("fn-read-" + pid).start(this::read);
        }

        private void send(DataOutputStream out) {
            List<Pending> batch = new ArrayList<>();
            List<FunctionWire.Call> calls = new ArrayList<>();
            try {
                while (alive) {
                    window.acquire();
                    Pending first = queue.take();
                    if (first == STOP) {
                        FunctionWire.writeFrame(out, FunctionWire.batch(List.of()));
                        return;
                    }
                    batch.add(first);
                    queue.drainTo(batch, fairShare(queue.size() + 1) - 1);
                    int stops = batch.size();
                    batch.removeIf(p -> p == STOP);
                    for (stops -= batch.size(); stops > 0; stops--) {
                        queue.add(STOP); // for another sender, or for this one next time
                    }
                    byte[] frame = frame(batch, calls);
                    if (batch.isEmpty()) { // every one failed to serialize
                        window.release();
                        continue;
                    }
                    synchronized (inFlight) {
                        inFlight.add(List.copyOf(batch));
                    }
                    if (!alive) { // lost while this batch was being taken: lost() did not see it
                        for (Pending p : batch) {
                            p.result().completeExceptionally(new IllegalStateException("function worker " + pid + " was lost"));
                        }
                        return;
                    }
                    FunctionWire.writeFrame(out, frame);
                    batch.clear();
                    calls.clear();
                }
            } catch (IOException | InterruptedException e) {
                lost("cannot write to it: " + e.getMessage());
            }
        }

        /**
         * The frame of {@code batch}'s calls (into {@code calls}). A call whose function or
         * argument cannot be serialized fails here, alone, and leaves {@code batch}.
         */
        private static byte[] frame(List<Pending> batch, List<FunctionWire.Call> calls) throws IOException {
            for (Pending p : batch) {
                calls.add(p.call());
            }
            try {
                return FunctionWire.batch(calls);
            } catch (IOException e) {
                calls.clear();
                for (java.util.Iterator<Pending> it = batch.iterator(); it.hasNext(); ) {
                    Pending p = it.next();
                    try {
                        FunctionWire.batch(List.of(p.call()));
                        calls.add(p.call());
                    } catch (IOException bad) {
                        p.result().completeExceptionally(new IllegalArgumentException(
                                "the function or its argument cannot be serialized (" + bad + ")", bad));
                        it.remove();
                    }
                }
                return FunctionWire.batch(calls);
            }
        }

        private void read() {
            try {
                while (true) {
                    FunctionWire.Result[] results = FunctionWire.readResults(in);
                    List<Pending> batch;
                    synchronized (inFlight) {
                        batch = inFlight.poll();
                    }
                    window.release();
                    for (int i = 0; i < results.length; i++) {
                        FunctionWire.Result r = results[i];
                        CompletableFuture<Object> f = batch.get(i).result();
                        if (r.ok()) {
                            f.complete(r.value());
                        } else {
                            f.completeExceptionally((Throwable) r.value());
                        }
                    }
                }
            } catch (IOException e) {
                lost(closed ? "the pool closed" : "its connection ended: " + e);
            }
        }

        private void lost(String why) {
            alive = false;
            List<List<Pending>> held;
            synchronized (inFlight) {
                held = List.copyOf(inFlight);
                inFlight.clear();
            }
            for (List<Pending> b : held) {
                for (Pending p : b) {
                    p.result().completeExceptionally(new IllegalStateException("function worker " + pid + " was lost: " + why));
                }
            }
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
            if (sender != null) {
                sender.interrupt();
            }
        }

        void awaitEnd(long millis) {
            try {
                if (reader != null) {
                    reader.join(millis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lost("the pool closed");
        }
    }
}
