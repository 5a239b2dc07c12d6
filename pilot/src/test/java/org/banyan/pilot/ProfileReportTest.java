package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileReportTest {
    @TempDir
    Path dir;

    /**
     * Two 1-core tasks on a 2-core pilot: one runs 0-2 s, the other 1-2 s (held 0.5 s before it
     * runs), then fails at 3. The pilot's cores come first in its PMGR_ACTIVE message, before
     * what its warm-up did.
     */
    @Test
    void ttxCoreTimeSplitAndConcurrencyComeFromTheStates() throws Exception {
        Files.writeString(dir.resolve(Profile.FILE), """
                #time,event,comp,thread,uid,state,msg
                100.0,state,pmgr,main,pilot.0000,PMGR_ACTIVE,cores=2 warm_up=500 tasks in 412 ms
                100.0,state,tmgr,main,task.a,NEW,cores=1
                100.0,state,agent,t,task.a,AGENT_EXECUTING_PENDING,
                100.0,state,agent,t,task.a,AGENT_EXECUTING,
                102.0,state,agent,t,task.a,AGENT_STAGING_OUTPUT_PENDING,
                102.0,state,agent,t,task.a,AGENT_STAGING_OUTPUT,
                102.0,state,tmgr,t,task.a,DONE,
                100.0,state,tmgr,main,task.b,NEW,cores=1
                100.5,state,agent,t,task.b,AGENT_EXECUTING_PENDING,
                101.0,state,agent,t,task.b,AGENT_EXECUTING,
                102.0,state,agent,t,task.b,FAILED,exit 3
                """);
        ProfileReport r = ProfileReport.of(dir, 5);
        assertThat(r.tasks()).isEqualTo(2);
        assertThat(r.done()).isEqualTo(1);
        assertThat(r.failed()).isEqualTo(1);
        assertThat(r.ttx()).isCloseTo(2.0, within(1e-9));
        assertThat(r.executing()).isCloseTo(3.0, within(1e-9));
        assertThat(r.overhead()).isCloseTo(0.5, within(1e-9));
        assertThat(r.idle()).isCloseTo(0.5, within(1e-9));
        assertThat(r.peakConcurrency()).isEqualTo(2);
        assertThat(r.concurrency()).containsExactly(1, 1, 2, 2, 0);
        assertThat(r.coresBusy()).as("cores executing, the mean over each stretch").containsExactly(1, 1, 2, 2, 2);
        assertThat(r.throughputByTenth()).as("both end in TTX's last tenth, 0.2 s: 10 a second")
                .containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 10);
        ReportPlots.write(r, dir);
        assertThat(dir.resolve("concurrency.png")).isNotEmptyFile();
        assertThat(dir.resolve("throughput.png")).isNotEmptyFile();
        assertThat(Files.readString(dir.resolve("states.svg"))).contains("<svg");
    }

    /** With the daemon's exec_start/exec_stop, only the process's run counts as executing; the rest of the hold is overhead. */
    @Test
    void whenTheProcessReallyRanSplitsExecutingFromOverhead() throws Exception {
        Files.writeString(dir.resolve(Profile.FILE), """
                #time,event,comp,thread,uid,state,msg
                100.0,state,pmgr,main,pilot.0000,PMGR_ACTIVE,cores=1
                100.0,state,tmgr,main,task.a,NEW,cores=1
                100.0,state,agent,t,task.a,AGENT_EXECUTING_PENDING,
                100.0,state,agent,t,task.a,AGENT_EXECUTING,
                100.25,exec_start,agent,t,task.a,,
                101.75,exec_stop,agent,t,task.a,,
                102.0,state,agent,t,task.a,AGENT_STAGING_OUTPUT_PENDING,
                102.0,state,agent,t,task.a,AGENT_STAGING_OUTPUT,
                102.0,state,tmgr,t,task.a,DONE,
                """);
        ProfileReport r = ProfileReport.of(dir, 5);
        assertThat(r.executing()).isCloseTo(1.5, within(1e-9));
        assertThat(r.overhead()).isCloseTo(0.5, within(1e-9));
        assertThat(r.ttx()).isCloseTo(2.0, within(1e-9));
    }

    /** Events it does not use are skipped; a number it needs and cannot read is named by its line. */
    @Test
    void aBadNumberIsNamedByItsLine() throws Exception {
        Path file = dir.resolve(Profile.FILE);
        Files.writeString(file, Profile.HEADER + "\n100.0,state,tmgr,main,task.a,NEW,cores=1\nnot an event at all\n"
                + "abc,state,tmgr,main,task.a,DONE,\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProfileReport.of(dir, 10)).isInstanceOf(java.io.IOException.class)
                .hasMessage(file + ":4: 'abc' is not a time (seconds since the epoch)");
        Files.writeString(file, Profile.HEADER + "\n100.0,state,tmgr,main,task.a,NEW,cores=x\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProfileReport.of(dir, 10))
                .hasMessage(file + ":2: the cores in 'cores=x' are not a number");
        for (String notATime : java.util.List.of("NaN", "Infinity", "-5")) { // they parse as doubles
            Files.writeString(file, Profile.HEADER + "\n" + notATime + ",state,tmgr,main,task.a,NEW,cores=1\n");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProfileReport.of(dir, 10))
                    .hasMessage(file + ":2: '" + notATime + "' is not a time (seconds since the epoch)");
        }
        Files.write(file, (Profile.HEADER + "\n100.0,state,tmgr,main,task.a,NEW,cores=1\n\u00ff\n").getBytes(
                java.nio.charset.StandardCharsets.ISO_8859_1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProfileReport.of(dir, 10))
                .hasMessage(file + ": not text (not UTF-8): is this a profile?");
    }

    /** A profile cut short (a full disk, a session still writing) is read without its last part-line, and says so. */
    @Test
    void aProfileCutShortIsToldApart() throws Exception {
        Path file = dir.resolve(Profile.FILE);
        Files.writeString(file, Profile.HEADER + "\n100.0,state,tmgr,main,task.a,NEW,cores=1\n");
        assertThat(ProfileReport.endsMidLine(dir)).isFalse();
        Files.writeString(file, Profile.HEADER + "\n100.0,state,tmgr,main,task.a,NEW,cores=1\n101.0,state,tm");
        assertThat(ProfileReport.endsMidLine(dir)).isTrue();
        assertThat(ProfileReport.of(dir, 10).tasks()).isEqualTo(1);
        Files.writeString(file, "");
        assertThat(ProfileReport.endsMidLine(dir)).isFalse();
    }

    /**
     * 100,000 tasks of about a millisecond keep a 2-core pilot busy for 50 s: the cores plotted
     * stay at 2 all along, where instants between two tasks caught fewer, and the report of that
     * many is made without a sample per task.
     */
    @Test
    void aLargeBagOfShortTasksShowsItsCoresBusy() throws Exception {
        java.util.Map<String, java.util.Map<String, Double>> states = new java.util.HashMap<>();
        for (int i = 0; i < 100_000; i++) {
            double t0 = 100 + (i / 2) * 0.001;
            java.util.Map<String, Double> s = new java.util.HashMap<>();
            s.put("NEW", 100.0);
            s.put("AGENT_EXECUTING", t0);
            s.put("AGENT_STAGING_OUTPUT_PENDING", t0 + 0.0009);
            s.put("DONE", t0 + 0.0009);
            states.put("task." + i, s);
        }
        ProfileReport r = ProfileReport.compute(states, java.util.Map.of(), 2, 200);
        assertThat(r.tasks()).isEqualTo(100_000);
        for (int i = 0; i < r.coresBusy().length; i++) {
            assertThat(r.coresBusy()[i]).as("stretch %d", i).isBetween(1.7, 2.0 + 1e-9);
        }
        ReportPlots.write(r, dir);
        assertThat(dir.resolve("concurrency.png")).isNotEmptyFile();
        assertThat(dir.resolve("states.png")).isNotEmptyFile();
    }
}
