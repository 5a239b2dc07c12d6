package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileTest {
    @Test
    void timesKeepSixDecimalsAndMessagesLoseTheirSeparators() {
        assertThat(Profile.line(1_700_000_000_000_042L, "advance", "tmgr", "main", "task.000001", "DONE", "a,b\nc"))
                .isEqualTo("1700000000.000042,advance,tmgr,main,task.000001,DONE,a;b c");
        assertThat(Profile.line(1_999_999L, "e", "c", "t", "u", "", null)).isEqualTo("1.999999,e,c,t,u,,");
        assertThat(Profile.line(0L, "e", "c", "t", "u", "s", "")).isEqualTo("0.000000,e,c,t,u,s,");
        assertThat(Profile.line(-1L, "e", "c", "t", "u", "s", "")).as("before the epoch").isEqualTo("-1.999999,e,c,t,u,s,");
    }

    @Test
    void textIsUtf8AndEveryEventStaysOneLineOfSevenColumns() {
        assertThat(Profile.line(1_000_000L, "state", "tmgr", "pool, 2", "task.é", "DONE", "é ✓ \uD83D\uDE00 \uD800 a,b\r\nc"))
                .isEqualTo("1.000000,state,tmgr,pool  2,task.é,DONE,é ✓ \uD83D\uDE00 ? a;b  c");
    }

    /** A slow session's events reach the file within about a second, not only when 60 KiB have gathered. */
    @Test
    void aLoneEventIsWrittenOutWithoutWaitingForMore(@TempDir Path dir) throws Exception {
        try (Profile p = new Profile(dir)) {
            p.event(1_000_000L, "state", "tmgr", "task.000000", "AGENT_EXECUTING", "");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Files.readAllLines(dir.resolve(Profile.FILE)).size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(Files.readAllLines(dir.resolve(Profile.FILE))).hasSize(2).last().asString()
                    .contains(",task.000000,AGENT_EXECUTING,");
            p.close();
            p.event(2_000_000L, "state", "tmgr", "task.000000", "DONE", "");
        }
        assertThat(Files.readAllLines(dir.resolve(Profile.FILE))).as("nothing after close").hasSize(2);
    }

    @Test
    void manyEventsComeBackInOrderAcrossFlushes(@TempDir Path dir) throws Exception {
        try (Profile p = new Profile(dir)) {
            for (int i = 0; i < 5_000; i++) {
                p.event(1_000_000L * i, "state", "tmgr", "task." + i, "NEW", "ü".repeat(i % 50));
            }
        }
        var lines = Files.readAllLines(dir.resolve(Profile.FILE));
        assertThat(lines).hasSize(5_001);
        for (int i = 0; i < 5_000; i++) {
            assertThat(lines.get(i + 1)).isEqualTo(Profile.line(1_000_000L * i, "state", "tmgr", Thread.currentThread().getName(),
                    "task." + i, "NEW", "ü".repeat(i % 50)));
            assertThat(lines.get(i + 1)).startsWith(i + ".000000,state,tmgr,").endsWith(",NEW," + "ü".repeat(i % 50));
        }
    }

    /**
     * The name columns and the time's seconds are kept encoded from line to line: names that
     * share a cache slot ("Aa" and "BB" have one hash), a renamed thread, times out of order and
     * a run of one task's uid must each still come out as they are.
     */
    @Test
    void keptEncodingsNeverStandForOtherText(@TempDir Path dir) throws Exception {
        String oldName = Thread.currentThread().getName();
        try (Profile p = new Profile(dir)) {
            p.event(1_999_999L, "Aa", "c", "u", "Aa", "");
            p.event(2_000_000L, "BB", "c", "u", "BB", "");
            p.event(1_500_000L, "Aa", "c", "u", new String("BB".toCharArray()), "");
            Thread.currentThread().setName("renamed, once");
            p.event(-2_500_000L, "BB", "c", "u", "Aa", "");
            p.event(12_000_001L, "Aa", "c", "u", "BB", "");
            // a task's uid is kept from its last line too: the same text in another instance,
            // no uid, and a uid with a comma between runs of one
            String uid = "task.000001";
            p.event(13_000_000L, "Aa", "c", uid, "BB", "");
            p.event(13_000_000L, "Aa", "c", uid, "BB", "");
            p.event(13_000_000L, "Aa", "c", new String(uid.toCharArray()), "BB", "");
            p.event(13_000_000L, "Aa", "c", null, "BB", "");
            p.event(13_000_000L, "Aa", "c", "x,y", "BB", "");
            p.event(13_000_000L, "Aa", "c", uid, "BB", "");
        } finally {
            Thread.currentThread().setName(oldName);
        }
        assertThat(Files.readAllLines(dir.resolve(Profile.FILE))).containsExactly(Profile.HEADER,
                "1.999999,Aa,c," + oldName + ",u,Aa,",
                "2.000000,BB,c," + oldName + ",u,BB,",
                "1.500000,Aa,c," + oldName + ",u,BB,",
                "-3.500000,BB,c,renamed  once,u,Aa,",
                "12.000001,Aa,c,renamed  once,u,BB,",
                "13.000000,Aa,c,renamed  once,task.000001,BB,",
                "13.000000,Aa,c,renamed  once,task.000001,BB,",
                "13.000000,Aa,c,renamed  once,task.000001,BB,",
                "13.000000,Aa,c,renamed  once,,BB,",
                "13.000000,Aa,c,renamed  once,x y,BB,",
                "13.000000,Aa,c,renamed  once,task.000001,BB,");
    }

    @Test
    void writesTheHeaderThenOneLinePerEvent(@TempDir Path dir) throws Exception {
        try (Profile p = new Profile(dir)) {
            p.event(2_500_000L, "state", "agent", "task.000000", "NEW", null);
        }
        assertThat(Files.readAllLines(dir.resolve(Profile.FILE))).hasSize(2)
                .first().isEqualTo(Profile.HEADER);
        assertThat(Files.readAllLines(dir.resolve(Profile.FILE)).get(1)).startsWith("2.500000,state,agent,");
    }

    /**
     * A state change writes a line for each state it fills in, the reason only on the last, and
     * its lines stay together while other threads write theirs; so do a task's exec lines.
     */
    @Test
    void aMovesStatesAreWrittenTogetherWithTheReasonOnTheLast(@TempDir Path dir) throws Exception {
        var path = org.banyan.core.pilot.TaskState.path(org.banyan.core.pilot.TaskState.AGENT_EXECUTING,
                org.banyan.core.pilot.TaskState.TMGR_STAGING_OUTPUT);
        int threads = 4;
        int moves = 2_000;
        try (Profile p = new Profile(dir)) {
            Thread[] writers = new Thread[threads];
            for (int w = 0; w < threads; w++) {
                String uid = "task." + w;
                writers[w] = Thread.ofPlatform().name("writer-" + w).start(() -> {
                    for (int i = 0; i < moves; i++) {
                        p.states(1_000_000L + i, uid, path, "why " + i);
                        p.exec(5_000_000L, 6_000_000L, uid);
                    }
                });
            }
            for (Thread t : writers) {
                t.join();
            }
        }
        var lines = Files.readAllLines(dir.resolve(Profile.FILE));
        assertThat(lines).hasSize(1 + threads * moves * (path.size() + 2));
        int runs = 0;
        for (int at = 1; at < lines.size(); ) {
            String[] first = lines.get(at).split(",", -1);
            String thread = first[3];
            String uid = first[4];
            assertThat(thread).isEqualTo("writer-" + uid.substring("task.".length()));
            if (first[1].equals("exec_start")) {
                assertThat(lines.get(at)).isEqualTo("5.000000,exec_start,agent," + thread + "," + uid + ",,");
                assertThat(lines.get(at + 1)).isEqualTo("6.000000,exec_stop,agent," + thread + "," + uid + ",,");
                at += 2;
                continue;
            }
            long i = Long.parseLong(first[0].substring(first[0].indexOf('.') + 1));
            for (int k = 0; k < path.size(); k++) {
                String[] c = lines.get(at + k).split(",", -1);
                assertThat(c).as(lines.get(at + k)).hasSize(7);
                assertThat(c[0]).isEqualTo(first[0]);
                assertThat(c[1]).isEqualTo("state");
                assertThat(c[2]).isEqualTo(path.get(k).component());
                assertThat(c[3]).isEqualTo(thread);
                assertThat(c[4]).isEqualTo(uid);
                assertThat(c[5]).isEqualTo(path.get(k).name());
                assertThat(c[6]).isEqualTo(k == path.size() - 1 ? "why " + i : "");
            }
            at += path.size();
            runs++;
        }
        assertThat(runs).isEqualTo(threads * moves);
    }

    /** A profile that cannot be written whole (a full disk) says why, for the session's summary to say it is incomplete. */
    @Test
    void aProfileThatCannotBeWrittenSaysWhy() throws Exception {
        java.io.ByteArrayOutputStream kept = new java.io.ByteArrayOutputStream();
        java.io.OutputStream full = new java.io.OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                if (kept.size() + len > 100) {
                    throw new java.io.IOException("No space left on device");
                }
                kept.write(b, off, len);
            }
        };
        try (Profile p = new Profile(full)) {
            p.event(1_000_000L, "state", "tmgr", "task.000000", "NEW", "");
            assertThat(p.flushNow()).as("within the space").isNull();
            for (int i = 0; i < 10; i++) {
                p.event(1_000_000L, "state", "tmgr", "task.00000" + i, "DONE", "");
            }
            assertThat(p.flushNow()).isEqualTo("No space left on device");
            assertThat(p.flushNow()).as("it stays incomplete").isEqualTo("No space left on device");
        }
        assertThat(kept.toString(java.nio.charset.StandardCharsets.UTF_8)).startsWith(Profile.HEADER + "\n").hasLineCount(2);
    }
}
