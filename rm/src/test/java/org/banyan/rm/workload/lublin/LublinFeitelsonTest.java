package org.banyan.rm.workload.lublin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The generator against the authors' own program: ref-SEED.swf is what m_lublin99.c
 * (../shared/reference/lublin99, its seed read from the command line instead of the clock)
 * printed for that seed, 1,000 jobs on its 128 nodes.
 */
class LublinFeitelsonTest {
    private static String reference(long seed) throws IOException {
        try (InputStream in = LublinFeitelsonTest.class.getResourceAsStream("/lublin/ref-" + seed + ".swf")) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 42, 20261128})
    void writesWhatTheAuthorsProgramWritesLineForLine(long seed) throws IOException {
        String mine = LublinFeitelson.swf(new LublinFeitelson(seed).jobs(1000), 128);
        List<String> expected = reference(seed).lines().toList();
        List<String> got = mine.lines().toList();
        assertThat(got).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(got.get(i)).as("line %d of seed %d", i + 1, seed).isEqualTo(expected.get(i));
        }
    }

    @Test
    void drand48IsPosixs() {
        Drand48 r = new Drand48(0);
        // srand48(0); drand48() three times, as glibc gives them
        assertThat(r.next()).isEqualTo(0.17082803610628972);
        assertThat(r.next()).isEqualTo(0.74990198048496381);
        assertThat(r.next()).isEqualTo(0.09637165562356742);
    }

    @Test
    void logGammaIsRightToAFewUlpsOfItsTerms() {
        assertThat(GammaFunctions.logGamma(1)).isCloseTo(0, within(1e-13));
        assertThat(GammaFunctions.logGamma(5)).isCloseTo(Math.log(24), within(1e-13));
        assertThat(GammaFunctions.logGamma(0.5)).isCloseTo(0.5 * Math.log(Math.PI), within(1e-13));
        assertThat(GammaFunctions.logGamma(171)).isCloseTo(706.5730622457874, within(1e-11));
        assertThat(GammaFunctions.logGamma(6.1271)).isCloseTo(5.005792787211044, within(1e-13)); // the batch cycle's shape
    }

    @Test
    void aLargerMachineGetsLargerJobs() {
        List<LublinFeitelson.Job> small = new LublinFeitelson(7).jobs(5000);
        List<LublinFeitelson.Job> large = new LublinFeitelson(7, JobClass.BATCH.onNodes(1024), JobClass.INTERACTIVE.onNodes(1024))
                .jobs(5000);
        assertThat(small).allMatch(j -> j.nodes() >= 1 && j.nodes() <= 128);
        assertThat(large).allMatch(j -> j.nodes() >= 1 && j.nodes() <= 1024);
        assertThat(large.stream().mapToInt(LublinFeitelson.Job::nodes).max().getAsInt()).isGreaterThan(128);
        assertThat(JobClass.BATCH.onNodes(128)).isSameAs(JobClass.BATCH);
    }
}
