package org.banyan.runtime.dvm;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.head.OutputOptions;
import org.banyan.runtime.head.OutputSink;

/**
 * A client of a DVM: connects with the secret, and runs one job there as {@code banyan run}
 * would (output shown the same way, signals and stdin forwarded, the job's exit status
 * returned), or asks for the DVM's status, or stops it.
 */
public final class DvmClient implements AutoCloseable {
    /** Why a client could not reach its DVM, in one line for the user. */
    public static final class Unreachable extends Exception {
        public Unreachable(String message) {
            super(message);
        }
    }

    private final ClientChannel channel;
    private final org.banyan.runtime.head.StdinGate stdinGate = new org.banyan.runtime.head.StdinGate();
    private final ClientMessage.Welcome welcome;
    private final String secret;

    private DvmClient(ClientChannel channel, ClientMessage.Welcome welcome, String secret, int answerMillis,
            DvmFiles.Contact contact) {
        this.channel = channel;
        this.address = contact.address();
        this.pid = contact.pid();
        this.welcome = welcome;
        this.secret = secret;
        this.answerMillis = answerMillis;
    }

    /** How long an answer the DVM gives at once may take ({@link AnswerTimeout}). */
    private final int answerMillis;
    /** The head's address and pid, as its contact file gives them. */
    private final String address;
    private final long pid;

    /**
     * The next message, when the DVM owes an answer it gives at once: a DVM that gives none
     * within the wait is given up ({@link AnswerTimeout.NoAnswer}) and the connection closed.
     */
    private ClientMessage answer() throws IOException {
        try {
            return channel.receiveWithin(answerMillis);
        } catch (java.net.SocketTimeoutException e) {
            channel.close();
            throw new AnswerTimeout.NoAnswer(answerMillis, address, pid);
        }
    }

    /** The largest frame a client reads before the DVM has proven the secret (a challenge, a welcome, a refusal). */
    static final int HANDSHAKE_FRAME_MAX = 16 << 10;

    /** Connects and presents the secret; answers are waited for as {@link AnswerTimeout#VARIABLE} says. */
    public static DvmClient connect(DvmFiles files, String who) throws Unreachable {
        return connect(files, who, System.getenv(AnswerTimeout.VARIABLE));
    }

    /** Connects and presents the secret; answers are waited for as {@code timeout}, a client's {@link AnswerTimeout#VARIABLE}, says. */
    public static DvmClient connect(DvmFiles files, String who, String timeout) throws Unreachable {
        int answerMillis;
        try {
            answerMillis = AnswerTimeout.millis(timeout);
        } catch (IllegalArgumentException e) {
            throw new Unreachable(e.getMessage());
        }
        return connect(files, who, answerMillis);
    }

    /** Connects and presents the secret; an answer the DVM owes at once is waited for {@code answerMillis} at most. */
    static DvmClient connect(DvmFiles files, String who, int answerMillis) throws Unreachable {
        DvmFiles.Contact contact;
        try {
            contact = files.read();
        } catch (IOException e) {
            throw new Unreachable(e.getMessage());
        }
        ClientChannel channel;
        try {
            channel = ClientChannel.connect(contact.address(), 10_000);
        } catch (ConnectException e) {
            throw new Unreachable("the DVM of " + files.uri() + " (pid " + contact.pid() + ") is not running: "
                    + e.getMessage() + "; start one with 'banyan dvm start'");
        } catch (IOException e) {
            throw new Unreachable("cannot reach the DVM of " + files.uri() + " at " + contact.address() + ": "
                    + e.getMessage());
        }
        try {
            // the DVM speaks first: a challenge the hello proves the secret against (HelloProof)
            ClientMessage challenge = channel.receiveWithin(answerMillis, HANDSHAKE_FRAME_MAX);
            if (!(challenge instanceof ClientMessage.Challenge(String nonce))) {
                channel.close();
                throw new Unreachable("the DVM of " + files.uri() + " refused the connection: " + refusal(challenge));
            }
            String ours = HelloProof.nonce();
            channel.send(new ClientMessage.Hello(HelloProof.of(contact.secret(), nonce), who, ours));
            ClientMessage answer = channel.receiveWithin(answerMillis, HANDSHAKE_FRAME_MAX);
            if (answer instanceof ClientMessage.Welcome w) {
                if (!HelloProof.headMatches(w.proof(), contact.secret(), ours, nonce)) {
                    channel.close(); // before a task, a command or a byte of input goes to it
                    throw new Unreachable("the process at " + contact.address() + " is not the DVM of " + files.uri()
                            + ": it does not know that DVM's secret (the DVM has ended and another process has its"
                            + " port?); nothing was sent to it");
                }
                return new DvmClient(channel, w, contact.secret(), answerMillis, contact);
            }
            channel.close();
            throw new Unreachable("the DVM of " + files.uri() + " refused the connection: " + refusal(answer));
        } catch (java.net.SocketTimeoutException e) {
            channel.close();
            throw new Unreachable("the DVM of " + files.uri() + " (pid " + contact.pid() + ") did not answer within "
                    + AnswerTimeout.seconds(answerMillis) + AnswerTimeout.stoppedHint(contact.address(), contact.pid()));
        } catch (IOException e) {
            channel.close();
            // A DVM from before the protocol number cannot read this hello and hangs up without a word;
            // one from before protocol 10 sends no challenge and hangs up at its hello deadline (5 s).
            throw new Unreachable("the DVM of " + files.uri() + " (pid " + contact.pid() + ") closed the connection at its hello"
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")") + "; if it runs another version of banyan, "
                    + "use the banyan that started it, or end it (kill " + contact.pid() + ") and start a new one");
        }
    }

    /**
     * Why the other end would not let this client in, as one line of printable text: the text
     * comes from whoever listens at the DVM's address before it proved it knows the secret, and
     * goes to the user's terminal, so its control characters (an escape sequence, a carriage
     * return that hides what came before) are shown as {@code ?} and its length is bounded.
     */
    static String refusal(ClientMessage m) {
        String why = m instanceof ClientMessage.Refused(String reason) && reason != null ? reason : "unexpected " + m;
        return printable(why, 500);
    }

    /** {@code text} with every control character as {@code ?}, cut to {@code max} characters. */
    static String printable(String text, int max) {
        String cut = text.length() > max ? text.substring(0, max) + "..." : text;
        StringBuilder b = new StringBuilder(cut.length());
        cut.codePoints().forEach(c -> b.append(Character.isISOControl(c) || c == 0x2028 || c == 0x2029
                || Character.getType(c) == Character.FORMAT ? "?" : Character.toString(c)));
        return b.toString();
    }

    public ClientMessage.Welcome welcome() {
        return welcome;
    }

    /**
     * Has the DVM open its dashboard on {@code bind:port} (port 0: any free one), or finds where
     * it is open, and returns its URL with the token that opens it.
     *
     * @throws IOException with the DVM's reason when it cannot serve it there
     */
    public String dashboard(String bind, int port) throws IOException {
        channel.send(new ClientMessage.OpenDashboard(bind, port));
        while (true) {
            if (answer() instanceof ClientMessage.DashboardAt(String at, int open, String error)) {
                if (!error.isEmpty()) {
                    throw new IOException(error);
                }
                return DashboardServer.url(at, open, DashboardServer.token(secret));
            }
        }
    }

    public ClientMessage.Status status() throws IOException {
        channel.send(new ClientMessage.StatusRequest());
        while (true) {
            if (answer() instanceof ClientMessage.Status s) {
                return s;
            }
        }
    }

    /**
     * Submits tasks to the DVM's agent and returns their ids, in order. State updates that come
     * meanwhile are kept for {@link #updates}.
     */
    public List<Integer> submit(List<TaskRequest> tasks) throws IOException {
        channel.send(new ClientMessage.SubmitTasks(tasks));
        while (true) {
            ClientMessage m = answer();
            if (m instanceof ClientMessage.TasksAccepted(List<Integer> ids)) {
                return ids;
            }
            if (m instanceof ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> u)) {
                early.addAll(u);
            }
        }
    }

    private final List<ClientMessage.TaskUpdate> early = new ArrayList<>();

    /**
     * Follows tasks of any client ({@link ClientMessage.WatchTasks}); returns those the DVM knows
     * (every unfinished one for none). Their states follow through {@link #updates}.
     */
    public List<Integer> watch(List<Integer> taskIds) throws IOException {
        channel.send(new ClientMessage.WatchTasks(taskIds));
        while (true) {
            ClientMessage m = answer();
            if (m instanceof ClientMessage.TasksAccepted(List<Integer> ids)) {
                return ids;
            }
            if (m instanceof ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> u)) {
                early.addAll(u);
            }
        }
    }

    /** The next batch of task state changes; blocks until one comes. EOF when the DVM is gone. */
    public List<ClientMessage.TaskUpdate> updates() throws IOException {
        if (!early.isEmpty()) {
            List<ClientMessage.TaskUpdate> out = List.copyOf(early);
            early.clear();
            return out;
        }
        while (true) {
            if (channel.receive() instanceof ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> u)) {
                return u;
            }
        }
    }

    /** Sends a message as it is (any thread): for clients that read with their own thread ({@link #receive}). */
    public void send(ClientMessage m) throws IOException {
        channel.send(m);
    }

    /** The next message from the DVM; for one reader thread only. EOF when the DVM is gone. */
    public ClientMessage receive() throws IOException {
        return channel.receive();
    }

    /** Cancels tasks, of this client or another (any thread). */
    public void cancel(List<Integer> taskIds) throws IOException {
        channel.send(new ClientMessage.CancelTasks(taskIds));
    }

    /** Asks the DVM to stop, and waits (up to {@code millis}) for it to close the connection. */
    public boolean stop(long millis) throws IOException {
        channel.send(new ClientMessage.Stop());
        long deadline = System.currentTimeMillis() + millis;
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    channel.receive();
                }
            } catch (IOException e) {
                // closed: the DVM is gone
            }
        });
        try {
            reader.join(Math.max(1, deadline - System.currentTimeMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !reader.isAlive();
    }

    /**
     * Runs a job and returns its exit status, as {@code banyan run} would; 2 when the DVM refused
     * it (nothing started), 1 when the DVM went away.
     */
    public int run(ClientMessage.RunJob job, OutputOptions output) throws IOException {
        return run(job, output, ClientTerminal.own());
    }

    /** {@link #run(ClientMessage.RunJob, OutputOptions)} for a user at {@code terminal} (a quick client's). */
    public int run(ClientMessage.RunJob job, OutputOptions output, ClientTerminal terminal) throws IOException {
        channel.send(job);
        return follow(job, answer(), output, "banyan run", terminal);
    }

    /**
     * Queues a job for the DVM's resource manager, says where it stands in the queue, then
     * follows it as {@link #run} does once it starts. Leaving before then takes it out of the queue.
     */
    public int queue(ClientMessage.QueueJob job, OutputOptions output) throws IOException {
        channel.send(job);
        ClientMessage first = answer();
        if (first instanceof ClientMessage.JobQueued(int id, int ahead)) {
            if (ahead >= 0) {
                System.err.println("banyan dvm submit: job " + id + " waits for " + job.maxNodes() + " host"
                        + (job.maxNodes() == 1 ? "" : "s") + (ahead == 0 ? "" : ", " + ahead + " job" + (ahead == 1 ? "" : "s")
                        + " ahead of it"));
            }
            first = channel.receive();
        }
        return follow(job.run(), first, output, "banyan dvm submit", ClientTerminal.own());
    }

    private int follow(ClientMessage.RunJob job, ClientMessage first, OutputOptions output, String who,
            ClientTerminal terminal) throws IOException {
        if (first instanceof ClientMessage.JobRejected(String reason)) {
            terminal.say(who + ": the DVM refused the job: " + reason);
            return 2;
        }
        if (!(first instanceof ClientMessage.JobAccepted(int jobId, int ranks))) {
            throw new IOException("unexpected answer from the DVM: " + first);
        }
        OutputSink sink = terminal.sink(output, jobId);
        try {
            try {
                sink.prepareFiles(ranks);
            } catch (IOException e) { // the DVM ends the job as this client goes
                terminal.say(who + ": " + OutputSink.cannotOpen(e) + "; job " + jobId + " ended");
                return 1;
            }
            terminal.onSignals(sink.endingFirst(sig -> sendQuietly(new ClientMessage.SignalJob(jobId, sig))));
            if (job.stdinRank() != -1) {
                forwardStdin(jobId, terminal);
            }
            while (true) {
                ClientMessage m;
                try {
                    m = channel.receive();
                } catch (IOException e) {
                    sink.report(lost(who, e) + "; job " + jobId + " ended with it");
                    return 1;
                }
                switch (m) {
                    case ClientMessage.JobOutput o -> sink.write(o.jobId(), o.rank(), o.stream(), o.data()); // spawned jobs' too
                    case ClientMessage.JobReport r -> sink.report(r.line());
                    case ClientMessage.StdinCredit c -> stdinGate.credit(c.limit());
                    case ClientMessage.JobEnded e -> {
                        return e.status();
                    }
                    default -> {
                        // other traffic is not for a running job
                    }
                }
                sink.flush();
                OutputSink.Failure lost = sink.takeFailure();
                if (lost != null) { // the DVM ends the job as this client goes
                    sink.report(who + ": " + lost.why() + "; job " + jobId + " ended with it");
                    return lost.status();
                }
            }
        } finally {
            terminal.finished(sink);
        }
    }

    /** Sends stdin to the DVM within the credit it grants (the head's flow control), as banyan run's reader does. */
    private void forwardStdin(int jobId, ClientTerminal terminal) {
        Thread.ofPlatform().daemon().name("dvm-stdin").start(() -> {
            byte[] buf = new byte[1 << 16];
            long sent = 0;
            try {
                InputStream in = terminal.stdin();
                int n = 0;
                while (stdinGate.awaitRoom(sent) && (n = in.read(buf)) > 0) {
                    channel.send(new ClientMessage.Stdin(jobId, Arrays.copyOf(buf, n)));
                    sent += n;
                }
                if (n < 0) {
                    channel.send(new ClientMessage.Stdin(jobId, new byte[0]));
                }
            } catch (IOException | InterruptedException e) {
                // stdin or the DVM went away
            }
        });
    }

    private void sendQuietly(ClientMessage m) {
        try {
            channel.send(m);
        } catch (IOException e) {
            // the reader sees the DVM gone
        }
    }

    @Override
    public void close() {
        channel.close();
    }

    /** {@code who: lost the DVM (why)}: what a command says when its DVM goes away under it. */
    public static String lost(String who, IOException e) {
        return who + ": lost the DVM (" + why(e) + ")";
    }

    /** Why a connection to a DVM ended, in words: a closed one has no message of its own. */
    public static String why(IOException e) {
        return e.getMessage() == null ? "it closed the connection" : e.getMessage();
    }
}
