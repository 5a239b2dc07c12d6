package org.banyan.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol with the JDK's WebSocket: open a
 * page, read what it shows ({@link #evaluate}), take a screenshot, and collect every script
 * error (uncaught exceptions, console errors, failed loads) the page had.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());

    static boolean available() {
        return Files.isExecutable(Path.of("/usr/bin/chromium"));
    }

    private HeadlessChromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    /** Starts Chromium on a blank page of a fresh profile. */
    static HeadlessChromium start() throws Exception {
        Path profile = Files.createTempDirectory("banyan-chromium");
        Process p = new ProcessBuilder("/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-dev-shm-usage", "--remote-debugging-port=0", "--user-data-dir=" + profile, "--window-size=1280,1600",
                "about:blank").redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();
        Path active = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(active) || Files.readAllLines(active).size() < 2) {
            if (System.nanoTime() > deadline || !p.isAlive()) {
                p.destroyForcibly();
                throw new IOException("chromium did not start: " + Files.readString(profile.resolve("chromium.log")));
            }
            Thread.sleep(50);
        }
        int port = Integer.parseInt(Files.readAllLines(active).getFirst().strip());
        HttpClient http = HttpClient.newHttpClient();
        JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        String page = null;
        for (JsonNode t : targets) {
            if (t.path("type").asText().equals("page")) {
                page = t.path("webSocketDebuggerUrl").asText();
            }
        }
        if (page == null) {
            p.destroyForcibly();
            throw new IOException("chromium shows no page: " + targets);
        }
        HeadlessChromium[] self = new HeadlessChromium[1];
        StringBuilder frame = new StringBuilder();
        WebSocket ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10)).buildAsync(URI.create(page), new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                frame.append(data);
                if (last) {
                    String text = frame.toString();
                    frame.setLength(0);
                    while (self[0] == null) {
                        Thread.onSpinWait();
                    }
                    self[0].received(text);
                }
                w.request(1);
                return null;
            }
        }).get(10, TimeUnit.SECONDS);
        HeadlessChromium c = new HeadlessChromium(p, profile, ws);
        self[0] = c;
        c.call("Runtime.enable", Map.of());
        c.call("Log.enable", Map.of());
        c.call("Page.enable", Map.of());
        return c;
    }

    private void received(String text) {
        try {
            JsonNode m = JSON.readTree(text);
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
                return;
            }
            String method = m.path("method").asText();
            JsonNode params = m.path("params");
            switch (method) {
                case "Runtime.exceptionThrown" -> errors.add("exception: " + params.path("exceptionDetails").toString());
                case "Runtime.consoleAPICalled" -> {
                    if (params.path("type").asText().equals("error")) {
                        errors.add("console.error: " + params.path("args").toString());
                    }
                }
                case "Log.entryAdded" -> {
                    if (params.path("entry").path("level").asText().equals("error")) {
                        errors.add("log: " + params.path("entry").path("text").asText() + " " + params.path("entry").path("url").asText());
                    }
                }
                default -> {
                    // other events
                }
            }
        } catch (IOException e) {
            errors.add("unreadable DevTools message: " + e);
        }
    }

    /** A DevTools call and its result. */
    JsonNode call(String method, Map<String, ?> params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode m = JSON.createObjectNode().put("id", id).put("method", method);
        m.set("params", JSON.valueToTree(params));
        socket.sendText(JSON.writeValueAsString(m), true).get(10, TimeUnit.SECONDS);
        JsonNode r = answer.get(30, TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new IOException(method + ": " + r.get("error"));
        }
        return r.path("result");
    }

    /** Navigates to {@code url} and waits until its document has loaded. */
    void open(String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
        await("document.readyState === 'complete' && location.href.startsWith('" + url.replace("'", "") + "'.slice(0, 20))",
                v -> v.asBoolean(), 30);
    }

    /** The value of a JavaScript expression in the page. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true));
        if (r.has("exceptionDetails")) {
            throw new IOException("the page could not evaluate " + expression + ": " + r.get("exceptionDetails"));
        }
        return r.path("result").path("value");
    }

    /**
     * Waits up to {@code seconds} for the expression's value to pass {@code test}; returns the
     * last value. An expression that throws (the page is still loading) counts as not yet, until
     * the deadline.
     */
    JsonNode await(String expression, Predicate<JsonNode> test, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            try {
                JsonNode v = evaluate(expression);
                if (test.test(v) || System.nanoTime() > deadline) {
                    return v;
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(200);
        }
    }

    void screenshot(Path png) throws Exception {
        JsonNode r = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        Files.write(png, Base64.getDecoder().decode(r.path("data").asText()));
    }

    /** Every script error the page had so far. */
    List<String> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() throws Exception {
        socket.abort();
        // its helper processes too: one still writing the profile after the browser ended left
        // a /tmp/banyan-chromium* directory behind each suite run
        List<ProcessHandle> helpers = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        for (ProcessHandle h : helpers) {
            h.destroyForcibly();
        }
        for (ProcessHandle h : helpers) {
            try {
                h.onExit().get(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // gone from our sight; the directory goes below anyway
            }
        }
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
