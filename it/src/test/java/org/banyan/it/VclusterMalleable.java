package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The malleability scenario of {@link DvmResizeTest} on vcluster hosts, over ssh or inside a
 * Slurm allocation: a DVM over four hosts, FlexibleSleep submitted for 1 to 4 of them (it starts
 * on 4), a rigid job of 2 queued behind it (the policy shrinks it to 2 so that job starts), then
 * the free hosts given back to it (it expands to 4), its data checked after every resize. One
 * shell script, so that under Slurm it all runs inside one allocation.
 */
final class VclusterMalleable {
    private VclusterMalleable() {}

    /** The script; its arguments go to {@code dvm start} (none inside an allocation). */
    static Path script(Path dir) throws Exception {
        String cp = CommExamples.compile(dir.resolve("malleable-classes"));
        Path script = dir.resolve("malleable.sh");
        Files.writeString(script, """
                B='%s'; W='%s'
                "$B" dvm start --uri-file "$W/dvm.uri" "$@" || exit 3
                "$B" dvm submit --dvm "$W/dvm.uri" --nodes 1:4 --time 30 '%s' -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \\
                    -Xshare:auto -cp '%s' FlexibleSleep 14 1.2 100003 > "$W/flexible.out" 2>&1 < /dev/null &
                f=$!
                i=0
                until grep -q "step 1: 4 rank" "$W/flexible.out" 2>/dev/null || [ $i -ge 900 ]; do sleep 0.1; i=$((i + 1)); done
                "$B" dvm submit --dvm "$W/dvm.uri" --nodes 2 --time 5 sh -c 'echo B ran on $(hostname)' > "$W/queued.out" 2>&1 < /dev/null
                echo "queued exit $?" >> "$W/queued.out"
                wait $f
                echo "flexible exit $?" >> "$W/flexible.out"
                "$B" dvm stop --dvm "$W/dvm.uri"
                """.formatted(Banyan.SCRIPT, dir, JavaClient.JAVA, cp));
        return script;
    }

    /** What the script left in {@code dir}: the job shrank, the queued job ran, the job grew back, every step checked. */
    static void assertResizedWithItsDataIntact(Path dir) throws Exception {
        String flexible = Files.readString(dir.resolve("flexible.out"));
        String queued = Files.readString(dir.resolve("queued.out"));
        assertThat(queued).as(queued).containsPattern("B ran on node\\d").contains("queued exit 0");
        assertThat(flexible).as(flexible).contains("flexible exit 0")
                .containsPattern("step \\d+: 2 rank\\(s\\) \\(shrink from 4, [0-9.]+ ms\\)")
                .containsPattern("step \\d+: 4 rank\\(s\\) \\(expand from 2, [0-9.]+ ms\\)")
                .contains("step 13: 4 rank(s)");
        assertThat(flexible.indexOf("shrink from 4")).isLessThan(flexible.indexOf("expand from 2"));
        for (int s = 0; s < 14; s++) {
            assertThat(flexible).as("every step ran once, its data checked").containsOnlyOnce("step " + s + ":");
        }
        String log = Files.readString(dir.resolve("dvm.uri.log"));
        assertThat(log).contains("job 1: shrink to 2 rank(s), generation 1").contains("job 1: expand to 4 rank(s), generation 2");
    }
}
