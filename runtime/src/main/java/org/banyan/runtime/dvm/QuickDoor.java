package org.banyan.runtime.dvm;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.banyan.runtime.os.LoopbackPeers;

/**
 * A DVM's second door, for {@code banyan run --dvm} typed on the DVM's own host: the
 * {@code banyan} script speaks to it with shell builtins ({@code /dev/tcp}), so such a run
 * starts no JVM of its own (a JVM client cost 150-200 ms before its job's first rank; the DVM's
 * JVM is warm). The wire format is {@link QuickRequest}'s.
 *
 * <p>Who may come in, proven twice: the door listens on 127.0.0.1 only, takes a connection only
 * from a socket of the DVM's own user ({@link LoopbackPeers}, what SO_PEERCRED gives a Unix
 * socket), which then presents the DVM's secret (compared in constant time). The script checks
 * the other way before it sends the secret: the listening socket at the port must be its user's
 * ({@code /proc/net/tcp}), so a port another user took after the DVM ended learns nothing. The
 * port is in the quick file next to the URI file, written as the secret is (0600).
 */
public final class QuickDoor implements AutoCloseable {
    /** Runs what a quick client asked, on a thread of its own; answers through the session. */
    @FunctionalInterface
    public interface Runner {
        void run(QuickRequest request, Session session) throws IOException;
    }

    /** How long a client may take to send its request. */
    static final int REQUEST_MILLIS = 5_000;
    /** Connections being read before they proved the secret; more wait in the backlog. */
    static final int UNPROVEN_MAX = 16;

    private final ServerSocket server;
    private final String secret;
    private final Runner runner;
    private final Consumer<String> log;
    private final Semaphore unproven = new Semaphore(UNPROVEN_MAX);
    /** A stranger who connects in a loop does not fill the log. */
    private final RefusalLog refusals;
    private volatile boolean closed;

    private QuickDoor(ServerSocket server, String secret, Runner runner, Consumer<String> log) {
        this.server = server;
        this.secret = secret;
        this.runner = runner;
        this.log = log;
        this.refusals = new RefusalLog(log, System::nanoTime);
    }

    /** Opens the door on a free loopback port and starts taking clients. */
    public static QuickDoor open(String secret, Runner runner, Consumer<String> log) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 64);
        QuickDoor door = new QuickDoor(server, secret, runner, log);
        Thread.ofPlatform().daemon().name("quick-door").start(door::accept);
        return door;
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            Socket s;
            try {
                unproven.acquire();
                s = server.accept();
            } catch (IOException | InterruptedException e) {
                return; // closed
            }
            Thread.ofVirtual().name("quick-client").start(() -> serve(s));
        }
    }

    private void serve(Socket s) {
        Session session;
        QuickRequest request;
        try {
            InputStream in = new BufferedInputStream(s.getInputStream());
            try {
                request = proven(s, in);
            } finally {
                unproven.release();
            }
            if (request == null) {
                close(s);
                return;
            }
            session = new Session(s, in, log, request.pid());
            if (!session.confirmed()) {
                log.accept("quick client (pid " + request.pid() + ") went before it confirmed (its JVM client serves it)");
                close(s);
                return;
            }
        } catch (IOException e) {
            close(s);
            return;
        }
        try {
            runner.run(request, session);
        } catch (IOException | RuntimeException e) {
            session.fail(e);
        } finally {
            close(s);
        }
    }

    /** The request of a client that proved who it is, or null (said in the log). */
    private QuickRequest proven(Socket s, InputStream in) throws IOException {
        if (!(s.getRemoteSocketAddress() instanceof InetSocketAddress peer) || !LoopbackPeers.isOwnUser(peer)) {
            refusals.refused("quick door: refused a connection from " + s.getRemoteSocketAddress()
                    + " (not a process of this DVM's user)");
            return null;
        }
        s.setSoTimeout(REQUEST_MILLIS);
        QuickRequest request;
        try {
            request = QuickRequest.read(in);
        } catch (IOException e) {
            refusals.refused("quick door: refused a client: " + (e instanceof java.net.SocketTimeoutException
                    ? "no request within " + REQUEST_MILLIS / 1000 + " s" : e.getMessage()));
            return null;
        }
        if (!MessageDigest.isEqual(request.secret().getBytes(StandardCharsets.UTF_8), secret.getBytes(StandardCharsets.UTF_8))) {
            refusals.refused("quick door: refused a client (pid " + request.pid() + "): it does not know the secret");
            return null;
        }
        s.setSoTimeout(0);
        return request;
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closed already
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closed already
        }
    }

    /**
     * A proven client's connection: the runner's answers, and the client's signals and end. From
     * its {@code go} on, the client's lines are read: a signal that ends (Ctrl-C, kill) before
     * the runner started the job is answered at once with its status, and a client that goes
     * then is given up; nothing is started for either ({@link #started} says false).
     */
    public static final class Session {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final Consumer<String> log;
        private final long pid;
        private boolean answered;
        /** The client went, or a signal ended its request, before the job started. */
        private boolean abandoned;
        private IntConsumer signals;
        private Runnable whenGone;
        private final java.util.List<Integer> early = new java.util.ArrayList<>();

        Session(Socket socket, InputStream in, Consumer<String> log, long pid) throws IOException {
            this.socket = socket;
            this.in = in;
            this.out = socket.getOutputStream();
            this.log = log;
            this.pid = pid;
        }

        /**
         * Says the request is read and waits for the client's {@code go}: a client that waited
         * too long for this (a stopped head) has gone to its JVM client, and its request must not
         * run twice. Then the client's lines are read.
         */
        boolean confirmed() throws IOException {
            line("ready");
            socket.setSoTimeout(REQUEST_MILLIS);
            try {
                byte[] go = in.readNBytes(3);
                if (!java.util.Arrays.equals(go, "go\n".getBytes(StandardCharsets.US_ASCII))) {
                    return false;
                }
            } catch (java.net.SocketTimeoutException e) {
                return false;
            }
            socket.setSoTimeout(0);
            Thread.ofVirtual().name("quick-client-lines").start(this::readLines);
            return true;
        }

        /** Nothing started: the client is to run its JVM client instead, for {@code why}. */
        public synchronized void fallback(String why) throws IOException {
            if (abandoned) {
                return;
            }
            log.accept("quick client (pid " + pid + ") sent back to its own JVM: " + why);
            line("fallback " + why.replace('\n', ' '));
        }

        /**
         * The job is the DVM's to start, unless the client went or ended its request meanwhile
         * (false: start nothing). From now the client's signals go to {@code signals}, and a
         * client that goes away (its connection closed, killed with -9) calls {@code gone}.
         */
        public boolean started(IntConsumer signals, Runnable gone) throws IOException {
            List<Integer> held;
            synchronized (this) {
                if (abandoned) {
                    return false;
                }
                line("run");
                this.signals = signals;
                this.whenGone = gone;
                held = List.copyOf(early);
                early.clear();
            }
            held.forEach(signals::accept);
            return true;
        }

        /** The job ended with {@code status}; the client exits with it. */
        public void finish(int status) throws IOException {
            line("status " + status);
        }

        private void readLines() {
            StringBuilder b = new StringBuilder();
            try {
                int c;
                while ((c = in.read()) >= 0) {
                    if (c != '\n') {
                        if (b.length() < 64) {
                            b.append((char) c);
                        }
                        continue;
                    }
                    String said = b.toString();
                    b.setLength(0);
                    if (said.startsWith("signal ")) {
                        try {
                            int sig = Integer.parseInt(said.substring(7).strip());
                            if (sig > 0 && sig < 65) {
                                signal(sig);
                            }
                        } catch (NumberFormatException e) {
                            // not a signal: ignored, as any other line
                        }
                    }
                }
            } catch (IOException e) {
                // gone as well
            }
            Runnable g;
            synchronized (this) {
                if (signals == null) {
                    abandoned = true;
                }
                g = whenGone;
            }
            if (g != null) {
                g.run();
            }
        }

        private void signal(int sig) {
            IntConsumer to;
            synchronized (this) {
                to = signals;
                if (to == null) {
                    if (org.banyan.core.daemon.Signals.ends(sig) && !abandoned) {
                        abandoned = true; // as the JVM client's own default action would have ended it
                        try {
                            line("status " + (128 + sig));
                        } catch (IOException e) {
                            // gone
                        }
                    } else {
                        early.add(sig);
                    }
                    return;
                }
            }
            to.accept(sig);
        }

        private void fail(Exception e) {
            if (!answered) {
                try {
                    fallback("the DVM could not take it: " + e);
                } catch (IOException x) {
                    // the client is gone
                }
            }
        }

        private synchronized void line(String text) throws IOException {
            answered = true;
            out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }
}
