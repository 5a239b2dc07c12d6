package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.banyan.core.head.StdinWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskInputFilesTest {
    @TempDir
    Path dir;

    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private final List<String> failed = new CopyOnWriteArrayList<>();
    private final TaskInputFiles files = new TaskInputFiles(new TaskInputFiles.Events() {
        @Override
        public void data(int job, byte[] data) {
            chunks.add(data);
        }

        @Override
        public void failed(int job, String why) {
            failed.add(job + " " + why);
        }
    });

    /** A file is handed over no further ahead than its credit, whole and in order, its end an empty chunk. */
    @Test
    void aFileIsReadWithinItsCreditToItsEnd() throws Exception {
        byte[] content = new byte[5 * TaskInputFiles.CHUNK + 17];
        new java.util.Random(7).nextBytes(content);
        Files.write(dir.resolve("in"), content);
        files.open(3, dir.toString(), "in");
        assertThat(chunks.poll(300, TimeUnit.MILLISECONDS)).as("nothing without credit").isNull();

        files.credit(3, 1);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        got.write(chunks.take());
        assertThat(chunks.poll(300, TimeUnit.MILLISECONDS)).as("one chunk for a credit of one byte").isNull();

        files.credit(3, Long.MAX_VALUE);
        for (byte[] c = chunks.take(); c.length > 0; c = chunks.take()) {
            got.write(c);
        }
        assertThat(got.toByteArray()).isEqualTo(content);
        waitUntilGone(3);
        assertThat(failed).isEmpty();
    }

    @Test
    void aFileThatIsNotThereSaysWhy() throws Exception {
        files.open(4, dir.toString(), "missing");
        waitUntilGone(4);
        assertThat(failed).containsExactly("4 No such file or directory (cannot open its stdin " + dir.resolve("missing") + ")");
        assertThat(chunks).isEmpty();
    }

    /** Once no rank reads, nothing more is read: an endless file costs nothing. */
    @Test
    void anEndlessFileStopsWhenNoRankReads() throws Exception {
        files.open(5, dir.toString(), "/dev/zero");
        files.credit(5, 3L * TaskInputFiles.CHUNK);
        for (int i = 0; i < 3; i++) {
            assertThat(chunks.poll(5, TimeUnit.SECONDS)).isNotNull();
        }
        files.credit(5, StdinWindow.STOP);
        waitUntilGone(5);
        assertThat(chunks.size()).isLessThanOrEqualTo(1); // one read may have been on its way
    }

    /**
     * A FIFO nobody writes holds only its reader, which leaves when its job ends (woken out of its
     * open); so does one whose writer writes nothing more (woken out of its read).
     */
    @Test
    void aReaderInAFifosOpenOrReadLeavesWhenItsJobEnds() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        files.open(6, dir.toString(), "fifo");
        files.credit(6, Long.MAX_VALUE);
        Thread.sleep(200);
        assertThat(readerAlive(6)).isTrue();
        files.close(6);
        waitUntilGone(6);

        files.open(7, dir.toString(), fifo.toString());
        files.credit(7, Long.MAX_VALUE);
        // the shell opens the FIFO, not this JVM (whose own open would wait for the reader, started first here all the same)
        Process writer = new ProcessBuilder("sh", "-c", "exec > \"$0\"; printf x; exec sleep 30", fifo.toString()).start();
        try {
            assertThat(chunks.poll(5, TimeUnit.SECONDS)).containsExactly('x');
            files.close(7);
            waitUntilGone(7);
        } finally {
            writer.descendants().forEach(ProcessHandle::destroy);
            writer.destroy();
        }
        assertThat(failed).isEmpty();
        assertThat(chunks).as("nothing told once closed").isEmpty();
    }

    private static boolean readerAlive(int job) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("dvm-task-input-" + job));
    }

    private void waitUntilGone(int job) throws InterruptedException {
        for (int i = 0; i < 100 && readerAlive(job); i++) {
            Thread.sleep(50);
        }
        assertThat(readerAlive(job)).as("reader of job " + job + " left").isFalse();
        assertThat(files.readers()).isZero();
    }
}
