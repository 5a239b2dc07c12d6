package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DVM's dashboard, as a person sees it: a real DVM of four hosts started with
 * {@code --dashboard}, a bag of tasks (two of which fail) and a malleable job that shrinks for a
 * queued one, watched in headless Chromium. The page must show the counts, the failures with
 * their stderr, the resize on the timeline and the job's ranks over time, with no script error;
 * and nobody without the token gets anything.
 */
class DashboardTest {
    static final Pattern URL = Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:(\\d+)/\\?token=([0-9a-f]+))");

    @TempDir
    static Path classes;

    static String classPath;

    @TempDir
    Path dir;

    Path uri;

    @BeforeAll
    static void compile() throws Exception {
        classPath = CommExamples.compile(classes);
    }

    @AfterEach
    void stopDvm() throws Exception {
        if (uri != null && Files.exists(uri)) {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
        Banyan.assertNoProcessesWith("FlexibleSleep");
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    /** Starts the DVM with its dashboard; returns the URL it printed. */
    Matcher startDvm() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--launcher", "local", "--host",
                "a:2,b:2,c:2,d:2", "--warm-up", "0", "--dashboard");
        assertThat(r.exit()).as(r.stderr()).isZero();
        Matcher m = URL.matcher(r.stdout());
        assertThat(m.find()).as(r.stdout()).isTrue();
        return m;
    }

    static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void onlyTheTokenOpensItAndItIsReadOnly() throws Exception {
        Matcher m = startDvm();
        String base = "http://127.0.0.1:" + m.group(2);
        assertThat(get(base + "/").statusCode()).isEqualTo(403);
        assertThat(get(base + "/snapshot?token=" + "0".repeat(40)).statusCode()).isEqualTo(403);
        assertThat(get(base + "/events").statusCode()).isEqualTo(403);
        HttpResponse<String> snapshot = get(base + "/snapshot?token=" + m.group(3));
        assertThat(snapshot.statusCode()).isEqualTo(200);
        assertThat(snapshot.body()).contains("\"name\":\"a\"", "\"slots\":2", "\"tasks\":{\"waiting\":0");
        HttpResponse<String> bearer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/snapshot"))
                .header("Authorization", "Bearer " + m.group(3)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bearer.statusCode()).isEqualTo(200);
        HttpResponse<String> post = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/?token=" + m.group(3)))
                .POST(HttpRequest.BodyPublishers.ofString("stop")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(get(base + "/uPlot.min.js").body()).as("the charting library, from the jar").contains("uPlot");

        assertThat(Files.readString(dir.resolve("dvm.uri.log"))).as("the token is printed once, never logged")
                .contains("dashboard on http://127.0.0.1:" + m.group(2)).doesNotContain(m.group(3));
        Banyan.Result again = Banyan.run("dashboard", "--dvm", uri.toString());
        assertThat(again.exit()).as(again.stderr()).isZero();
        assertThat(again.stdout().strip()).isEqualTo(m.group(1));
        Banyan.Result elsewhere = Banyan.run("dashboard", "--dvm", uri.toString(), "--port", "1");
        assertThat(elsewhere.exit()).isEqualTo(1);
        assertThat(elsewhere.stderr()).isEqualTo("banyan dashboard: the dashboard is open on 127.0.0.1:" + m.group(2) + " already\n");
        Banyan.Result bad = Banyan.run("dashboard", "--dvm", uri.toString(), "--bind", "localhost; rm -rf /");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.stderr()).startsWith("banyan dashboard: --bind 'localhost; rm -rf /' is not an IP address").hasLineCount(1);
        Banyan.Result none = Banyan.run("dashboard", "--dvm", dir.resolve("none.uri").toString());
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.stderr()).startsWith("banyan dashboard: no DVM at ").hasLineCount(1);
    }

    /**
     * A careless or hostile visitor: more pages than it serves, a stream nobody reads, paths that
     * try to leave the page's files, a huge query. None of it may hold the DVM up: it stops at
     * once with streams still open, and leaves no process.
     */
    @Test
    void streamsAreBoundedAndNoneHoldsTheDvmUp() throws Exception {
        Matcher m = startDvm();
        String base = "http://127.0.0.1:" + m.group(2);
        String token = m.group(3);
        List<java.net.Socket> open = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) { // the most it serves at once; none of them reads
                java.net.Socket s = new java.net.Socket("127.0.0.1", Integer.parseInt(m.group(2)));
                s.getOutputStream().write(("GET /events?token=" + token + " HTTP/1.1\r\nHost: x\r\n\r\n")
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                open.add(s);
            }
            Thread.sleep(1500);
            HttpResponse<String> more = get(base + "/events?token=" + token);
            assertThat(more.statusCode()).as("the 17th page").isEqualTo(503);
            assertThat(more.body()).contains("16 pages at once");
            assertThat(get(base + "/snapshot?token=" + token).statusCode()).as("data still served beside them").isEqualTo(200);
            for (String path : List.of("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/app.js/../../../etc/passwd",
                    "/org/banyan/runtime/dashboard/index.html", "/META-INF/MANIFEST.MF")) {
                HttpResponse<String> r = get(base + path + "?token=" + token);
                assertThat(r.statusCode()).as(path).isIn(400, 403, 404);
                assertThat(r.body()).as(path).doesNotContain("root:");
            }
            assertThat(get(base + "/?token=" + "x".repeat(20_000)).statusCode()).as("a huge token").isIn(403, 413, 414, 431);
            long t0 = System.nanoTime();
            Banyan.Result stop = Banyan.run("dvm", "stop", "--dvm", uri.toString());
            assertThat(stop.exit()).as(stop.stderr()).isZero();
            assertThat((System.nanoTime() - t0) / 1_000_000_000.0).as("stopping with 16 streams open").isLessThan(15);
        } finally {
            for (java.net.Socket s : open) {
                s.close();
            }
        }
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    @Test
    void aPersonSeesTheTasksAndAResizeLiveWithNoScriptError() throws Exception {
        assumeTrue(HeadlessChromium.available(), "Debian's chromium is not installed (.ci/run installs it)");
        Matcher m = startDvm();
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.open(m.group(1));
            assertThat(browser.await("document.body.dataset.updates || '0'", v -> Integer.parseInt(v.asText()) >= 1, 30).asText())
                    .as("a first snapshot drawn").isNotEqualTo("0");
            assertThat(browser.evaluate("document.querySelectorAll('#hosts .host').length").asInt()).isEqualTo(4);
            assertThat(browser.evaluate("document.querySelectorAll('#hosts .core').length").asInt()).isEqualTo(8);

            // a bag: 40 short tasks, two of which fail with a word on stderr
            StringBuilder bag = new StringBuilder();
            for (int i = 1; i <= 40; i++) {
                String fail = i == 7 || i == 13 ? "echo boom-" + i + " >&2; exit 3" : "true";
                bag.append("{\"uid\":\"t.").append(i).append("\",\"executable\":\"/bin/sh\",\"arguments\":[\"-c\",\"sleep 0.2; ")
                        .append(fail).append("\"]").append(i == 7 ? ",\"tags\":{\"colocate\":\"g7\"}" : "").append("}\n");
            }
            Files.writeString(dir.resolve("tasks.json"), bag);
            Banyan.Result submit = Banyan.run("submit", "--dvm", uri.toString(), "--tasks", dir.resolve("tasks.json").toString(),
                    "--session", dir.resolve("s").toString());
            assertThat(submit.exit()).as(submit.stderr()).isEqualTo(1);
            assertThat(browser.await("document.getElementById('count-done').textContent", v -> v.asText().equals("38"), 10).asText())
                    .isEqualTo("38");
            assertThat(browser.evaluate("document.getElementById('count-failed').textContent").asText()).isEqualTo("2");
            assertThat(browser.evaluate("document.querySelector('#failures tbody').textContent").asText())
                    .contains("t.7", "t.13", "boom-7", "boom-13");
            assertThat(browser.evaluate("document.querySelectorAll('#rate-chart canvas').length").asInt())
                    .as("the rate chart is drawn").isEqualTo(1);
            assertThat(browser.evaluate("(() => { const f = document.getElementById('filter'); f.value = 'boom-13';"
                    + " f.dispatchEvent(new Event('input')); return document.querySelectorAll('#failures tbody tr').length; })()")
                    .asInt()).as("the filter keeps one failure").isEqualTo(1);
            assertThat(browser.evaluate("(() => { const f = document.getElementById('filter'); f.value = 'g7';"
                    + " f.dispatchEvent(new Event('input')); const s = document.getElementById('state'); s.value = 'failed';"
                    + " s.dispatchEvent(new Event('change')); return document.getElementById('running-box').hidden + ' '"
                    + " + document.querySelector('#failures tbody').textContent; })()").asText())
                    .as("by tag, failed only").startsWith("true 7t.7g73");

            // a malleable job on the four hosts, shrunk so that a queued job of two hosts starts
            Path out = dir.resolve("flexible.out");
            List<String> args = new ArrayList<>(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1:4", "--time", "30",
                    JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath,
                    "FlexibleSleep", "10", "1.2", "100003"));
            Process flexible = Banyan.builder(args).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(new java.io.File("/dev/null")).start();
            DvmResizeTest.awaitLine(out, "step 1: 4 rank(s)");
            assertThat(browser.await("document.querySelector('#jobs tbody').textContent", v -> v.asText().contains("FlexibleSleep")
                    || v.asText().contains("java"), 10).asText()).as("the job is listed").isNotEmpty();
            assertThat(browser.await("document.getElementById('hosts').textContent", v -> v.asText().contains("job 1 (queued)"), 10)
                    .asText()).as("who holds each host").contains("job 1 (queued)");
            Banyan.Result queued = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "5", "sh", "-c",
                    "echo B ran");
            assertThat(queued.exit()).as(queued.stderr()).isZero();
            JsonNode resize = browser.await("[...document.querySelectorAll('#timeline li.resize')].map(l => l.textContent).join('\\n')",
                    v -> v.asText().contains("shrink to 2 rank(s)"), 15);
            assertThat(resize.asText()).contains("job 1: shrink to 2 rank(s)");
            assertThat(browser.evaluate("document.querySelectorAll('#size-chart canvas').length").asInt())
                    .as("ranks over time drawn").isEqualTo(1);
            assertThat(browser.evaluate("document.querySelector('#size-chart').textContent").asText()).contains("job 1");
            browser.screenshot(Banyan.ROOT.resolve("it/target/dashboard.png"));
            assertThat(flexible.waitFor(90, TimeUnit.SECONDS)).isTrue();

            // a monitored job: its ranks' traffic as a heat map while it runs
            List<String> stencil = new ArrayList<>(List.of("run", "--dvm", uri.toString(), "--monitor-out", dir.resolve("mon").toString(),
                    "-n", "4", JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath,
                    "Stencil", "256", "6000"));
            Process monitored = Banyan.builder(stencil).redirectErrorStream(true).redirectOutput(dir.resolve("stencil.out").toFile())
                    .redirectInput(new java.io.File("/dev/null")).start();
            JsonNode heat = browser.await("(() => { const c = document.querySelector('#traffic canvas');"
                    + " return c ? Number(c.dataset.nonzero) : 0; })()", v -> v.asInt() >= 8, 30);
            assertThat(heat.asInt()).as("a 2x2 stencil: each rank sends to its two neighbours at least").isGreaterThanOrEqualTo(8);
            assertThat(browser.evaluate("document.querySelector('#traffic figcaption').textContent").asText()).contains("4 ranks");
            browser.screenshot(Banyan.ROOT.resolve("it/target/dashboard-traffic.png"));
            assertThat(monitored.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(dir.resolve("stencil.out"))).contains("residual");

            assertThat(browser.errors()).as("script errors on the page").isEmpty();
        }
    }

    /** A simulator's timelines, shown from their files by the same page's server; garbage refused in one line. */
    @Test
    void aSimulatorsTimelinesAreShownFromTheirFiles() throws Exception {
        Path timelines = dir.resolve("timelines");
        Banyan.Result sim = Banyan.run("sim", "workload", "--preset", "seed-table1", "--jobs", "50", "--policy", "both", "--timeline",
                timelines.toString());
        assertThat(sim.exit()).as(sim.stderr()).isZero();
        Process view = Banyan.builder(List.of("dashboard", "--timeline", timelines.toString()))
                .redirectError(dir.resolve("view.err").toFile()).start();
        try {
            String url = new java.io.BufferedReader(new java.io.InputStreamReader(view.getInputStream())).readLine();
            assertThat(url).matches("http://127\\.0\\.0\\.1:\\d+/\\?token=[0-9a-f]{40}");
            assertThat(get(url.replaceFirst("\\?token=.*", "timelines")).statusCode()).isEqualTo(403);
            if (HeadlessChromium.available()) {
                try (HeadlessChromium browser = HeadlessChromium.start()) {
                    browser.open(url);
                    assertThat(browser.await("document.body.dataset.drawn || ''", v -> !v.asText().isEmpty(), 20).asText())
                            .isEqualTo("fixed,flexible");
                    assertThat(browser.evaluate("document.querySelectorAll('canvas').length").asInt()).isEqualTo(3);
                    assertThat(browser.evaluate("document.getElementById('chart-allocated_nodes').textContent").asText())
                            .contains("fixed", "flexible");
                    browser.screenshot(Banyan.ROOT.resolve("it/target/timeline.png"));
                    assertThat(browser.errors()).as("script errors on the page").isEmpty();
                }
            }
        } finally {
            view.destroy();
            assertThat(view.waitFor(10, TimeUnit.SECONDS)).as("ends on SIGTERM").isTrue();
        }
        // sim pilot's timeline, its own columns, on the same page
        Path pilot = dir.resolve("pilot");
        Banyan.Result ps = Banyan.run("sim", "pilot", "--hosts", "4", "--cores-per-host", "2", "--tasks", "2000", "--task-seconds",
                "0.05", "--timeline", pilot.toString());
        assertThat(ps.exit()).as(ps.stderr()).isZero();
        assertThat(Files.readAllLines(pilot.resolve("timeline_pilot.csv")).getFirst())
                .isEqualTo("time_s,running_tasks,done_tasks,failed_or_canceled_tasks");
        Process pview = Banyan.builder(List.of("dashboard", "--timeline", pilot.toString()))
                .redirectError(dir.resolve("pview.err").toFile()).start();
        try {
            String url = new java.io.BufferedReader(new java.io.InputStreamReader(pview.getInputStream())).readLine();
            if (HeadlessChromium.available()) {
                try (HeadlessChromium browser = HeadlessChromium.start()) {
                    browser.open(url);
                    assertThat(browser.await("document.body.dataset.drawn || ''", v -> !v.asText().isEmpty(), 20).asText())
                            .isEqualTo("pilot");
                    assertThat(browser.evaluate("[...document.querySelectorAll('h2')].map(h => h.textContent).join(',')").asText())
                            .isEqualTo("running tasks,done tasks,failed or canceled tasks");
                    assertThat(browser.errors()).as("script errors on the page").isEmpty();
                }
            }
        } finally {
            pview.destroy();
            assertThat(pview.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        Files.writeString(timelines.resolve("timeline_broken.csv"), "time_s,allocated_nodes,running_jobs,completed_jobs\n1,2,x,4\n");
        Banyan.Result broken = Banyan.run("dashboard", "--timeline", timelines.toString());
        assertThat(broken.exit()).isEqualTo(2);
        assertThat(broken.stderr()).endsWith("timeline_broken.csv line 2: 'x' is not a number\n").hasLineCount(1);
    }
}
