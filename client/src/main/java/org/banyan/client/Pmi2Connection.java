package org.banyan.client;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A PMI-2 connection to the rank's daemon, as a threaded client: every request carries a
 * {@code thrid}, and a reader thread completes the request its answer names, so answers may come
 * in any order (a lazy get waits for another host; a put does not). The wire format is PMI-2's:
 * 6 characters of length, then {@code cmd=NAME;key=value;...;} with ';' doubled in values,
 * one byte per character.
 */
final class Pmi2Connection implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final Map<String, CompletableFuture<Map<String, String>>> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong();
    private volatile boolean closed;

    private Pmi2Connection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    /** Connects to {@code host:port} and negotiates PMI-2 with the PMI-1 init line. */
    static Pmi2Connection open(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new BanyanException("PMI_PORT '" + hostPort + "' is not host:port");
        }
        Pmi2Connection c;
        try {
            Socket s = new Socket();
            s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                    10_000);
            c = new Pmi2Connection(s);
            c.write("cmd=init pmi_version=2 pmi_subversion=0\n");
            String reply = c.readLine();
            if (!reply.startsWith("cmd=response_to_init") || !reply.contains("rc=0")) {
                s.close();
                throw new BanyanException("the daemon at " + hostPort + " does not speak PMI-2: " + reply);
            }
        } catch (IOException | NumberFormatException e) {
            throw new BanyanException("cannot reach the daemon's PMI endpoint " + hostPort + ": " + e.getMessage(), e);
        }
        Thread.ofPlatform().daemon().name("banyan-pmi-reader").start(c::readLoop);
        return c;
    }

    /** Sends {@code cmd} with its key-value pairs; the future completes with the answer's pairs. */
    CompletableFuture<Map<String, String>> request(String cmd, String... keyValues) {
        String id = Long.toString(nextId.incrementAndGet());
        CompletableFuture<Map<String, String>> f = new CompletableFuture<>();
        pending.put(id, f);
        StringBuilder body = new StringBuilder("cmd=").append(cmd).append(";thrid=").append(id).append(';');
        for (int i = 0; i < keyValues.length; i += 2) {
            body.append(keyValues[i]).append('=').append(keyValues[i + 1].replace(";", ";;")).append(';');
        }
        try {
            write(String.format("%6d", body.length()) + body);
        } catch (IOException e) {
            pending.remove(id);
            f.completeExceptionally(new BanyanException("lost the connection to the daemon: " + e.getMessage(), e));
        }
        return f;
    }

    /** Sends without waiting for an answer (abort has none). */
    void send(String cmd, String... keyValues) throws IOException {
        StringBuilder body = new StringBuilder("cmd=").append(cmd).append(';');
        for (int i = 0; i < keyValues.length; i += 2) {
            body.append(keyValues[i]).append('=').append(keyValues[i + 1].replace(";", ";;")).append(';');
        }
        write(String.format("%6d", body.length()) + body);
    }

    private void write(String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        synchronized (out) {
            out.write(b);
            out.flush();
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            sb.append((char) c);
        }
        return sb.toString();
    }

    private void readLoop() {
        try {
            byte[] header = new byte[6];
            while (true) {
                in.readFully(header);
                int length = Integer.parseInt(new String(header, StandardCharsets.ISO_8859_1).strip());
                byte[] body = new byte[length];
                in.readFully(body);
                Map<String, String> pairs = parse(new String(body, StandardCharsets.ISO_8859_1));
                CompletableFuture<Map<String, String>> f = pending.remove(pairs.getOrDefault("thrid", ""));
                if (f != null) {
                    f.complete(pairs);
                }
            }
        } catch (IOException | NumberFormatException e) {
            BanyanException gone = new BanyanException(closed ? "the connection to the daemon is closed"
                    : "lost the connection to the daemon (the job is ending?)");
            pending.values().forEach(f -> f.completeExceptionally(gone));
            pending.clear();
        }
    }

    /** {@code cmd=NAME;k=v;...;} to its pairs, the command under "cmd". */
    static Map<String, String> parse(String body) {
        Map<String, String> pairs = new LinkedHashMap<>();
        int i = 0;
        while (i < body.length()) {
            int eq = body.indexOf('=', i);
            if (eq < 0) {
                break;
            }
            StringBuilder v = new StringBuilder();
            int j = eq + 1;
            while (j < body.length()) {
                char ch = body.charAt(j);
                if (ch == ';') {
                    if (j + 1 < body.length() && body.charAt(j + 1) == ';') {
                        v.append(';');
                        j += 2;
                        continue;
                    }
                    break;
                }
                v.append(ch);
                j++;
            }
            pairs.put(body.substring(i, eq), v.toString());
            i = j + 1;
        }
        return pairs;
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
