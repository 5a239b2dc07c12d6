package org.banyan.runtime.dvm;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.core.dvm.DvmSnapshot;

/**
 * The DVM's dashboard: a read-only web page served from the head (the JDK's HTTP server), with
 * the DVM's state pushed to it once a second as server-sent events. Every request for the page or
 * its data must carry the dashboard's token ({@link #token}, derived from the DVM's secret, so
 * whoever may use the DVM may watch it and nobody else); only the page's code and the charting
 * library are served without it. Nothing here changes the DVM: no request but GET is taken.
 *
 * <p>The head builds a snapshot only while someone watches ({@link #wanted}); its cost is the
 * hosts' count plus bounded lists, whatever the number of tasks, and it is turned into JSON here,
 * off the head's loop. At most {@link #MAX_STREAMS} pages are served at once.
 */
final class DashboardServer implements Closeable {
    static final int MAX_STREAMS = 16;
    /** uPlot's files in its WebJar (npm's package, in the jar). */
    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final String PAGE = "org/banyan/runtime/dashboard/";
    private static final Map<String, String[]> STATIC = Map.of(
            "/app.js", new String[] {PAGE + "app.js", "text/javascript"},
            "/style.css", new String[] {PAGE + "style.css", "text/css"},
            "/favicon.svg", new String[] {PAGE + "favicon.svg", "image/svg+xml"},
            "/favicon.ico", new String[] {PAGE + "favicon.svg", "image/svg+xml"},
            "/timeline.js", new String[] {PAGE + "timeline.js", "text/javascript"},
            "/uPlot.min.js", new String[] {UPLOT + "uPlot.iife.min.js", "text/javascript"},
            "/uPlot.min.css", new String[] {UPLOT + "uPlot.min.css", "text/css"});

    /**
     * Connections the dashboard holds at once, at most: the JDK's server holds every connection
     * accepted, and one that never finishes its request for ever, so a stranger on the host
     * who opened 3,000 of them had the DVM's head hold 3,000 descriptors (its whole limit is the
     * DVM's too: task files, daemons, clients). Beyond this, new connections are closed at once.
     */
    static final int MAX_CONNECTIONS = 256;
    /** Seconds a request may take to arrive whole; a connection that takes longer is closed. */
    static final int MAX_REQUEST_SECONDS = 10;

    static {
        // read once, when the JDK's server is first used; a user's own settings win
        if (System.getProperty("jdk.httpserver.maxConnections") == null) {
            System.setProperty("jdk.httpserver.maxConnections", Integer.toString(MAX_CONNECTIONS));
        }
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
        }
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final String token;
    private final AtomicInteger streams = new AtomicInteger();
    private final Object changed = new Object();
    /** The last snapshot as JSON, and its number (0: none yet). */
    private String latest;
    private long sequence;
    /** Someone asked for data since the last snapshot: the head should make one. */
    private volatile boolean asked;
    /** A file viewer's data (simulator timelines as JSON), or null when this serves a live DVM. */
    private final String timelines;

    /** Opens the server on {@code bind:port} (port 0: any free one). */
    DashboardServer(String bind, int port, String secret) throws IOException {
        this(bind, port, secret, null);
    }

    /** @param timelines JSON of simulator timelines to show instead of a live DVM */
    DashboardServer(String bind, int port, String secret, String timelines) throws IOException {
        this.timelines = timelines;
        this.token = token(secret);
        this.server = HttpServer.create(new InetSocketAddress(literal(bind), port), 32);
        server.setExecutor(threads);
        server.createContext("/", this::serve);
        server.start();
    }

    /** The token that opens the dashboard of the DVM with this secret (HMAC-SHA256 of a fixed label, in hex). */
    static String token(String secret) {
        return HexFormat.of().formatHex(org.banyan.runtime.net.Hmac.sha256(secret.getBytes(StandardCharsets.UTF_8),
                "banyan dashboard".getBytes(StandardCharsets.UTF_8))).substring(0, 40);
    }

    /**
     * {@code bind} as an IP address, never looked up: it comes from a client, and a host name
     * would have the head's loop wait for DNS.
     *
     * @throws IllegalArgumentException when it is not an IPv4 or IPv6 literal
     */
    static InetAddress literal(String bind) {
        try {
            return InetAddress.ofLiteral(bind);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + bind + "' is not an IP address (127.0.0.1, 0.0.0.0, ::1)");
        }
    }

    /** The URL that opens a dashboard on {@code bind:port} with {@code token}. */
    static String url(String bind, int port, String token) {
        return "http://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + port + "/?token=" + token;
    }

    int port() {
        return server.getAddress().getPort();
    }

    String bind() {
        return server.getAddress().getAddress().getHostAddress();
    }

    /** Whether a page is open or data was asked for: the head makes a snapshot only then. */
    boolean wanted() {
        return asked || streams.get() > 0;
    }

    /** The head's state now (on the head's loop: only handed over; JSON is made here, off it). */
    void publish(DvmSnapshot snapshot) {
        asked = false;
        threads.execute(() -> {
            String json = SnapshotJson.of(snapshot);
            synchronized (changed) {
                latest = json;
                sequence++;
                changed.notifyAll();
            }
        });
    }

    private void serve(HttpExchange x) throws IOException {
        try (x) {
            if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
                reply(x, 405, "text/plain", "the dashboard is read-only\n");
                return;
            }
            String path = x.getRequestURI().getPath();
            String[] file = STATIC.get(path);
            if (file != null) {
                try (InputStream in = DashboardServer.class.getClassLoader().getResourceAsStream(file[0])) {
                    if (in == null) {
                        reply(x, 404, "text/plain", "not in this build: " + path + "\n");
                    } else {
                        reply(x, 200, file[1], in.readAllBytes());
                    }
                }
                return;
            }
            if (!authorized(x)) {
                reply(x, 403, "text/plain", "wrong or missing token: open the URL banyan dashboard or dvm start --dashboard printed\n");
                return;
            }
            switch (path) {
                case "/" -> {
                    String page = timelines == null ? "index.html" : "timeline.html";
                    try (InputStream in = DashboardServer.class.getClassLoader().getResourceAsStream(PAGE + page)) {
                        reply(x, 200, "text/html; charset=utf-8", in.readAllBytes());
                    }
                }
                case "/snapshot" -> {
                    long now;
                    synchronized (changed) {
                        now = sequence;
                    }
                    String json = next(now, 5_000); // a fresh one: the last may be from before anyone watched
                    reply(x, json == null ? 503 : 200, "application/json", json == null ? "{}" : json);
                }
                case "/events" -> stream(x);
                case "/timelines" -> reply(x, timelines == null ? 404 : 200, "application/json", timelines == null ? "{}" : timelines);
                default -> reply(x, 404, "text/plain", "no such page\n");
            }
        }
    }

    /** Server-sent events: each snapshot as one {@code data:} line, until the page goes away. */
    private void stream(HttpExchange x) throws IOException {
        if (streams.incrementAndGet() > MAX_STREAMS) {
            streams.decrementAndGet();
            reply(x, 503, "text/plain", "the dashboard serves " + MAX_STREAMS + " pages at once; close one\n");
            return;
        }
        try {
            x.getResponseHeaders().set("Content-Type", "text/event-stream");
            x.getResponseHeaders().set("Cache-Control", "no-store");
            x.sendResponseHeaders(200, 0);
            OutputStream out = x.getResponseBody();
            long seen = 0;
            while (!Thread.currentThread().isInterrupted()) {
                String json;
                long now;
                synchronized (changed) {
                    json = next(seen, 15_000);
                    now = sequence;
                }
                // a comment when nothing changed: a closed page shows up as a failed write
                out.write((json == null ? ": idle\n\n" : "data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                seen = json == null ? seen : now;
            }
        } catch (IOException e) {
            // the page went away
        } finally {
            streams.decrementAndGet();
        }
    }

    /** The first snapshot after number {@code after}, waiting up to {@code millis}; null when none came. */
    private String next(long after, long millis) {
        asked = true;
        long deadline = System.nanoTime() + millis * 1_000_000;
        synchronized (changed) {
            while (sequence <= after || latest == null) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return null;
                }
                try {
                    changed.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                asked = true;
            }
            return latest;
        }
    }

    private boolean authorized(HttpExchange x) {
        String presented = null;
        String auth = x.getRequestHeaders().getFirst("Authorization");
        if (auth != null && auth.startsWith("Bearer ")) {
            presented = auth.substring("Bearer ".length()).strip();
        }
        URI uri = x.getRequestURI();
        String query = uri.getRawQuery();
        if (presented == null && query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("token=")) {
                    presented = part.substring("token=".length());
                }
            }
        }
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    private static void reply(HttpExchange x, int status, String type, String body) throws IOException {
        reply(x, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void reply(HttpExchange x, int status, String type, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        x.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        x.getResponseHeaders().set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'");
        boolean head = x.getRequestMethod().equals("HEAD");
        x.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            x.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
