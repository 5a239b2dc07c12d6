package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.daemon.Signals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStartsTest {
    @TempDir
    Path dir;

    private final LinkedBlockingQueue<RankLaunch> started = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<DaemonEvent> events = new LinkedBlockingQueue<>();
    private final List<Integer> sent = new CopyOnWriteArrayList<>();
    private final FileStarts fifos = new FileStarts(started::add, events::add, (key, signal) -> sent.add(signal));

    private Path fifo(String name) throws Exception {
        Path p = dir.resolve(name);
        assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
        return p;
    }

    private RankLaunch task(String stdout, String stdin) {
        return RankLaunch.task(3, "/bin/echo", List.of("hi"), Map.of(), dir.toString(), stdout, "t.err", stdin);
    }

    @Test
    void onlyFifosAreWaitedFor() throws Exception {
        fifo("out");
        fifo("in");
        Files.writeString(dir.resolve("plain"), "x");
        assertThat(FileStarts.fifos(task("t.out", null))).as("files not made yet").isEmpty();
        assertThat(FileStarts.fifos(task("plain", "/dev/null"))).as("a file, a device").isEmpty();
        assertThat(FileStarts.fifos(task("out", null))).containsExactly(dir.resolve("out").toString());
        assertThat(FileStarts.fifos(task("/dev/null", "in"))).containsExactly(dir.resolve("in").toString());
    }

    @Test
    void aRankStartsOnceItsStdoutFifoHasAReaderAndGetsTheSignalsThatCameMeanwhile() throws Exception {
        Path out = fifo("out");
        RankLaunch launch = task("out", null);
        fifos.start(7, launch, FileStarts.fifos(launch), () -> List.of(Signals.SIGSTOP));
        assertThat(fifos.signal(7, Signals.SIGCONT)).as("held for the process to come").isTrue();
        assertThat(started.poll(300, TimeUnit.MILLISECONDS)).as("no reader yet").isNull();

        CompletableFuture<InputStream> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return new FileInputStream(out.toFile());
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        assertThat(started.poll(10, TimeUnit.SECONDS)).isEqualTo(launch);
        reader.get(10, TimeUnit.SECONDS).close();
        for (int i = 0; i < 100 && sent.size() < 2; i++) {
            Thread.sleep(20);
        }
        assertThat(sent).as("in order, once it runs").containsExactly(Signals.SIGSTOP, Signals.SIGCONT);
        assertThat(fifos.signal(7, Signals.SIGTERM)).as("started: the caller signals it as any rank").isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void aRankEndedWhileItsStdinFifoHasNoWriterIsNeverStarted() throws Exception {
        Path in = fifo("in");
        RankLaunch launch = task("t.out", "in");
        fifos.start(8, launch, FileStarts.fifos(launch), List::of);
        assertThat(started.poll(300, TimeUnit.MILLISECONDS)).isNull();

        assertThat(fifos.signal(8, Signals.SIGTERM)).isTrue();
        DaemonEvent e = events.poll(5, TimeUnit.SECONDS);
        assertThat(e).isInstanceOf(DaemonEvent.RankEnded.class);
        DaemonEvent.RankEnded end = (DaemonEvent.RankEnded) e;
        assertThat(end.jobId()).isEqualTo(launch.jobId());
        assertThat(end.rank()).isEqualTo(3);
        assertThat(end.status()).isEqualTo(128 + Signals.SIGTERM);
        assertThat(end.note()).isEqualTo("/bin/echo: never started: ended by SIGTERM while its file waited for the FIFO's other end");
        assertThat(fifos.signal(8, Signals.SIGKILL)).as("gone").isFalse();

        assertThat(waiterLeaves(launch)).as("woken out of its open, its thread leaves").isTrue();
        assertThat(started.poll(300, TimeUnit.MILLISECONDS)).as("ended before, it never starts").isNull();
        assertThat(events).isEmpty();
    }

    @Test
    void aGivenUpRankWaitingForAReaderLeavesToo() throws Exception {
        fifo("out");
        RankLaunch launch = task("out", null);
        fifos.start(9, launch, FileStarts.fifos(launch), List::of);
        assertThat(started.poll(200, TimeUnit.MILLISECONDS)).isNull();
        assertThat(fifos.signal(9, Signals.SIGKILL)).isTrue();
        assertThat(((DaemonEvent.RankEnded) events.poll(5, TimeUnit.SECONDS)).status()).isEqualTo(128 + Signals.SIGKILL);
        assertThat(waiterLeaves(launch)).isTrue();
        assertThat(started).isEmpty();
    }

    private static boolean waiterLeaves(RankLaunch launch) throws InterruptedException {
        String name = "rank-fifo-" + launch.jobId() + "-" + launch.rank();
        for (int i = 0; i < 100; i++) {
            if (Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals(name))) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }
}
