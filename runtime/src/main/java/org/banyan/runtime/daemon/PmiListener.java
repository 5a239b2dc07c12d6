package org.banyan.runtime.daemon;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.banyan.core.daemon.DaemonEvent;

/**
 * The daemon's PMI endpoint on the loopback interface (ranks always talk to the daemon of their
 * own host). Each connection gets a number; lines in become {@link DaemonEvent.PmiLine} events.
 */
public final class PmiListener implements Closeable {
    private final ServerSocket server;
    private final Consumer<DaemonEvent> events;
    private final Map<Integer, Socket> conns = new ConcurrentHashMap<>();
    private final AtomicInteger nextConn = new AtomicInteger();
    /** BANYAN_PMI_TRACE=1 prints every PMI line in and out on stderr, as Hydra's -verbose does. */
    private static final boolean TRACE = System.getenv("BANYAN_PMI_TRACE") != null;

    private PmiListener(ServerSocket server, Consumer<DaemonEvent> events) {
        this.server = server;
        this.events = events;
    }

    public static PmiListener open(Consumer<DaemonEvent> events) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
        PmiListener listener = new PmiListener(server, events);
        Thread.ofVirtual().name("pmi-accept").start(listener::acceptLoop);
        return listener;
    }

    /** {@code host:port}, the value of PMI_PORT. */
    public String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                int conn = nextConn.getAndIncrement();
                conns.put(conn, s);
                Thread.ofVirtual().name("pmi-" + conn).start(() -> readLoop(conn, s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void readLoop(int conn, Socket s) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.isBlank()) {
                    if (TRACE) {
                        System.err.println("[pmi " + conn + "] <- " + line);
                    }
                    events.accept(new DaemonEvent.PmiLine(conn, line));
                }
            }
        } catch (IOException e) {
            // a rank that dies mid-line: treated as a close
        } finally {
            conns.remove(conn);
            events.accept(new DaemonEvent.PmiClosed(conn));
        }
    }

    public void reply(int conn, String line) {
        Socket s = conns.get(conn);
        if (s == null) {
            return;
        }
        if (TRACE) {
            System.err.print("[pmi " + conn + "] -> " + line);
        }
        try {
            OutputStream out = s.getOutputStream();
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // the rank is gone; its end is reported by its process watcher
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        for (Socket s : conns.values()) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
