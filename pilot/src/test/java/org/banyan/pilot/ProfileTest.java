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
}
