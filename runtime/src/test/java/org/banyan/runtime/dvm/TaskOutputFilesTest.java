package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskOutputFilesTest {
    @TempDir
    Path dir;

    private final LinkedBlockingQueue<Integer> closed = new LinkedBlockingQueue<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Integer> backlog = new LinkedBlockingQueue<>();
    private final List<String> failed = new CopyOnWriteArrayList<>();
    private final TaskOutputFiles.Events events = new TaskOutputFiles.Events() {
        @Override
        public void closed(int task) {
            closed.add(task);
        }

        @Override
        public void backlog(int task) {
            backlog.add(task);
        }

        @Override
        public void failed(int task, String why) {
            failed.add(task + " " + why);
        }
    };

    @Test
    void writesEachStreamInOrderAndSaysWhenClosed() throws Exception {
        TaskOutputFiles files = new TaskOutputFiles(events, log::add);
        files.open(7, Files.createDirectories(dir.resolve("sandbox")).toString(), "out", "err");
        for (int i = 0; i < 1000; i++) {
            files.write(7, 1, (i + "\n").getBytes(StandardCharsets.UTF_8));
        }
        files.write(7, 2, "oops\n".getBytes(StandardCharsets.UTF_8));
        files.close(7);
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(7);
        assertThat(Files.readAllLines(dir.resolve("sandbox/out"))).hasSize(1000).startsWith("0", "1").endsWith("999");
        assertThat(dir.resolve("sandbox/err")).hasContent("oops\n");
        assertThat(log).isEmpty();
    }

    /**
     * A FIFO nobody reads holds its task's files, as a file system that stops answering would:
     * the caller (the DVM's loop) is not held, another task's files are written and closed, and
     * past the limit the held task's output is dropped, said once, and counted in its stderr.
     */
    @Test
    void aFileThatTakesNothingHoldsOnlyItsOwnTask() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        TaskOutputFiles files = new TaskOutputFiles(events, log::add, 1000, 400, 100);
        long start = System.nanoTime();
        files.open(1, dir.toString(), fifo.toString(), "err1");
        for (int i = 0; i < 30; i++) {
            files.write(1, 1, "0123456789".repeat(10).getBytes(StandardCharsets.UTF_8)); // 3,000 bytes: 2,000 past the limit
        }
        files.close(1);
        files.open(2, dir.toString(), "out2", "err2");
        files.write(2, 1, "two\n".getBytes(StandardCharsets.UTF_8));
        files.close(2);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("the caller is not held").isLessThan(5000);
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(dir.resolve("out2")).hasContent("two\n");
        assertThat(closed.poll(200, TimeUnit.MILLISECONDS)).as("the FIFO's task is not closed").isNull();
        assertThat(log).singleElement().asString().startsWith("task 1's output files take nothing");
        assertThat(backlog).as("behind once, past 400 bytes").containsExactly(1);
        assertThat(files.isBehind(1)).isTrue();

        Process reader = new ProcessBuilder("cat", fifo.toString()).start();
        byte[] read = reader.getInputStream().readAllBytes();
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(read).hasSize(1000);
        assertThat(dir.resolve("err1")).hasContent("banyan: 2000 bytes of this task's output were dropped: its files took nothing"
                + " for too long\n");
        assertThat(backlog.poll(10, TimeUnit.SECONDS)).as("and caught up").isEqualTo(1);
        assertThat(files.isBehind(1)).isFalse();
    }

    /**
     * Files left after their task failed for them: a writer blocked opening a FIFO nobody reads,
     * and one blocked writing into a FIFO whose reader does not read, both leave, telling nothing
     * more (each held a thread until the DVM stopped).
     */
    @Test
    void leftFilesFreeTheirWriters() throws Exception {
        TaskOutputFiles files = new TaskOutputFiles(events, log::add);
        Path unread = dir.resolve("unread");
        Path stalled = dir.resolve("stalled");
        for (Path p : List.of(unread, stalled)) {
            assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
        }
        files.open(3, dir.toString(), unread.toString(), "err3");
        files.write(3, 1, "never read\n".getBytes(StandardCharsets.UTF_8));
        files.close(3);
        try (java.io.RandomAccessFile keptOpen = new java.io.RandomAccessFile(stalled.toFile(), "rw")) { // a reader that reads nothing
            files.open(4, dir.toString(), stalled.toString(), "err4");
            files.write(4, 1, new byte[1 << 20]); // past the pipe's 64 KiB: its writer blocks in write
            files.close(4);
            Thread.sleep(300);
            assertThat(writerAlive(3)).isTrue();
            assertThat(writerAlive(4)).isTrue();
            files.abandon(3);
            files.abandon(4);
            for (int i = 0; i < 100 && (writerAlive(3) || writerAlive(4)); i++) {
                Thread.sleep(50);
            }
            assertThat(writerAlive(3)).as("out of its open").isFalse();
            assertThat(writerAlive(4)).as("out of its write").isFalse();
        }
        assertThat(closed.poll(300, TimeUnit.MILLISECONDS)).as("nothing told of left files").isNull();
        assertThat(failed).isEmpty();
    }

    private static boolean writerAlive(int task) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("dvm-task-output-" + task));
    }

    /** Files held by more FIFOs than this machine has cores hold no other task's files (the writers' threads are not all pinned). */
    @Test
    void manyHeldFilesHoldNoOtherTask() throws Exception {
        TaskOutputFiles files = new TaskOutputFiles(events, log::add);
        int held = Runtime.getRuntime().availableProcessors() * 2 + 2;
        for (int t = 1; t <= held; t++) {
            Path fifo = dir.resolve("fifo" + t);
            assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
            files.open(t, dir.toString(), fifo.toString(), "err" + t);
            files.close(t);
        }
        files.open(100, dir.toString(), "out", "err");
        files.write(100, 1, "free\n".getBytes(StandardCharsets.UTF_8));
        files.close(100);
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(100);
        assertThat(dir.resolve("out")).hasContent("free\n");
        for (int t = 1; t <= held; t++) { // lets their threads end
            new ProcessBuilder("sh", "-c", "cat \"$0\" > /dev/null", dir.resolve("fifo" + t).toString()).start();
        }
        for (int t = 1; t <= held; t++) {
            assertThat(closed.poll(10, TimeUnit.SECONDS)).isNotNull();
        }
    }

    /**
     * A task restarted elsewhere writes its files again: after the old writer is done (here held
     * by a FIFO, so that its files are seen not to be touched before), and only its close is said.
     */
    @Test
    void aTasksFilesOpenedAgainAreWrittenAfterTheOldOnesAndClosedOnce() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        TaskOutputFiles files = new TaskOutputFiles(events, log::add);
        files.open(5, dir.toString(), fifo.toString(), "err");
        files.write(5, 1, "old\n".getBytes(StandardCharsets.UTF_8));
        files.close(5);
        files.open(5, dir.toString(), "out", "err");
        files.write(5, 1, "new\n".getBytes(StandardCharsets.UTF_8));
        files.close(5);
        Thread.sleep(300);
        assertThat(dir.resolve("out")).as("not opened while the old writer is at work").doesNotExist();
        assertThat(closed).isEmpty();
        Process reader = new ProcessBuilder("cat", fifo.toString()).start();
        assertThat(new String(reader.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("old\n");
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(5);
        assertThat(dir.resolve("out")).hasContent("new\n");
        assertThat(closed.poll(300, TimeUnit.MILLISECONDS)).as("the old writer's close is not the task's").isNull();
    }

    /** A file that cannot be written (here a FIFO whose reader left) fails its task, once, as banyan run ends such a job. */
    @Test
    void aFileThatCannotBeWrittenSaysWhyOnce() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Process reader = new ProcessBuilder("sh", "-c", "head -c 3 < \"$0\" > /dev/null", fifo.toString()).start();
        TaskOutputFiles files = new TaskOutputFiles(events, log::add);
        files.open(6, dir.toString(), fifo.toString(), "err");
        assertThat(reader.waitFor(300, TimeUnit.MILLISECONDS)).isFalse(); // it waits for its 3 bytes
        for (int i = 0; i < 10; i++) {
            files.write(6, 1, new byte[64 << 10]);
        }
        files.write(6, 2, "still\n".getBytes(StandardCharsets.UTF_8));
        files.close(6);
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(6);
        assertThat(reader.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(failed).containsExactly("6 cannot write its stdout " + fifo + " (Broken pipe)");
        assertThat(dir.resolve("err")).as("the other file is still written").hasContent("still\n");
    }

    @Test
    void aStoppingDvmWaitsForHeldFilesNoLongerThanItsDeadline() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        TaskOutputFiles files = new TaskOutputFiles(events, log::add);
        files.open(1, dir.toString(), fifo.toString(), "err");
        files.open(2, dir.toString(), "out", "err2");
        files.write(2, 1, "x".getBytes(StandardCharsets.UTF_8));
        long start = System.nanoTime();
        files.closeAll(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500));
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(0L, 3000L);
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(dir.resolve("out")).hasContent("x");
        new ProcessBuilder("cat", fifo.toString()).start().getInputStream().readAllBytes(); // lets its thread end
    }

    /** A file that cannot be made fails its task with why (its job is ended by the core), and is still said closed. */
    @Test
    void aFileThatCannotBeMadeSaysWhyAndStillSaysClosed() throws Exception {
        TaskOutputFiles files = new TaskOutputFiles(events, log::add);
        files.open(4, dir.toString(), "/nonexistent-dir/out", "err");
        files.write(4, 1, "lost".getBytes(StandardCharsets.UTF_8));
        files.close(4);
        assertThat(closed.poll(10, TimeUnit.SECONDS)).isEqualTo(4);
        assertThat(failed).containsExactly("4 No such file or directory (cannot open its stdout /nonexistent-dir/out)");
        assertThat(Path.of("/nonexistent-dir")).as("no directory made outside the sandbox").doesNotExist();
    }
}
