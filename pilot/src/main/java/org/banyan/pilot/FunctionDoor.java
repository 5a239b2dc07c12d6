package org.banyan.pilot;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.pilot.function.FunctionWire;

/**
 * Where a function pool's workers dial in. Each connection is challenged and has
 * {@link #HELLO_MILLIS} to prove the pool's secret ({@link FunctionWire#readHello}; the pool
 * proves it back), on a virtual thread of its own, and
 * at most {@link #UNPROVEN} connections wait to prove it at once (more are closed at once).
 * Until 2026-12-02 one thread read each hello in turn with no time limit: a stranger who
 * connected and said nothing kept every worker out for as long as it stayed.
 */
final class FunctionDoor {
    static final int HELLO_MILLIS = FunctionWire.HELLO_MILLIS;
    static final int UNPROVEN = 64;
    /** Refusals said on stderr; the last of them says that further ones are not shown. */
    private static final int SAID = 20;

    /** Takes a worker that proved the secret, its stream positioned after the hello. */
    interface Admit {
        void admit(Socket s, DataInputStream in, long pid) throws IOException;
    }

    private final ServerSocket server;
    private final String secret;
    private final int helloMillis;
    private final Admit admit;
    private final Semaphore unproven = new Semaphore(UNPROVEN);
    private final AtomicInteger refusals = new AtomicInteger();
    private volatile boolean closed;

    FunctionDoor(ServerSocket server, String secret, int helloMillis, Admit admit) {
        this.server = server;
        this.secret = secret;
        this.helloMillis = helloMillis;
        this.admit = admit;
    }

    FunctionDoor start() {
        Thread.ofPlatform().daemon().name("fn-accept").start(this::accept);
        return this;
    }

    /** Stops taking connections (the caller closes the server socket). */
    void close() {
        closed = true;
    }

    private void accept() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("banyan: function pool: " + e.getMessage());
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L); // out of descriptors: no hot loop
                }
                continue;
            }
            if (!unproven.tryAcquire()) {
                refuse(s, UNPROVEN + " connections are already waiting to prove the secret");
                continue;
            }
            Thread.ofVirtual().name("fn-hello").start(() -> {
                try {
                    greet(s);
                } finally {
                    unproven.release();
                }
            });
        }
    }

    private void greet(Socket s) {
        DataInputStream in;
        FunctionWire.Hello hello;
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(helloMillis);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            byte[] challenge = FunctionWire.challenge(out);
            in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
            hello = FunctionWire.readHello(in, secret, challenge);
            if (hello != null) {
                FunctionWire.provePool(out, secret, hello, challenge);
            }
        } catch (SocketTimeoutException e) {
            refuse(s, "no hello within " + helloMillis + " ms");
            return;
        } catch (IOException e) { // it left mid-hello, or sent no hello's shape
            refuse(s, "not a worker's hello");
            return;
        }
        if (hello == null) {
            refuse(s, "wrong secret");
            return;
        }
        try {
            s.setSoTimeout(0);
            admit.admit(s, in, hello.pid());
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException closing) {
                // closed anyway
            }
            if (!closed) {
                System.err.println("banyan: function pool: " + e.getMessage());
            }
        }
    }

    private void refuse(Socket s, String why) {
        String from = String.valueOf(s.getRemoteSocketAddress());
        try {
            s.close();
        } catch (IOException e) {
            // closed anyway
        }
        int n = refusals.incrementAndGet();
        if (!closed && n <= SAID) {
            System.err.println("banyan: function pool: refused a connection from " + from + " (" + why + ")"
                    + (n == SAID ? "; further refusals are not shown" : ""));
        }
    }
}
