package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpawnInfoTest {
    @TempDir
    Path dir;

    @Test
    void noInfoIsTheProgramAsAsked() {
        SpawnInfo s = SpawnInfo.parse("prog", List.of("a"), 3, null);
        assertThat(s.app().executable()).isEqualTo("prog");
        assertThat(s.app().count()).isEqualTo(3);
        assertThat(s.hosts()).isEmpty();
        assertThat(s.counts()).containsExactly(3);
    }

    @Test
    void everyKeyIsRead() throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Path prog = Files.writeString(bin.resolve("prog"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(prog, PosixFilePermissions.fromString("rwx------"));
        SpawnInfo s = SpawnInfo.parse("prog", List.of(), 8, Map.of("host", "n1, n2,", "wdir", "/tmp",
                "path", "/nonexistent:" + bin, "soft", "1,4:8:2", "env", "A=1\nB=x=y\n"));
        assertThat(s.hosts()).containsExactly("n1", "n2");
        assertThat(s.app().wdir()).isEqualTo("/tmp");
        assertThat(s.app().executable()).isEqualTo(prog.toString());
        assertThat(s.app().env()).containsExactlyInAnyOrderEntriesOf(Map.of("A", "1", "B", "x=y"));
        assertThat(s.counts()).containsExactly(8, 6, 4, 1);
        assertThat(s.app().count()).isEqualTo(8);
    }

    @Test
    void aProgramWithASlashIsNotLookedUp() {
        assertThat(SpawnInfo.onPath("./prog", "/nowhere")).isEqualTo("./prog");
    }

    @Test
    void whatCannotBeHonouredIsSaid() {
        assertThatThrownBy(() -> SpawnInfo.parse("p", List.of(), 2, Map.of("map_by", "node")))
                .hasMessage("MPI_Info key 'map_by' is not one banyan-comm's spawn reads (host, wdir, path, soft, env)");
        assertThatThrownBy(() -> SpawnInfo.parse("p", List.of(), 2, Map.of("path", dir.toString())))
                .hasMessage("MPI_Info path: no executable p in " + dir);
        assertThatThrownBy(() -> SpawnInfo.parse("p", List.of(), 2, Map.of("host", " , ")))
                .hasMessage("MPI_Info host names no host");
        assertThatThrownBy(() -> SpawnInfo.parse("p", List.of(), 2, Map.of("env", "novalue")))
                .hasMessage("MPI_Info env: 'novalue' is not NAME=value");
        for (String bad : new String[] {"", "x", "1:2:3:4", "0:2", "2:1", "1:3", "1:2:0", ":2"}) {
            assertThatThrownBy(() -> SpawnInfo.parse("p", List.of(), 2, Map.of("soft", bad))).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("MPI_Info soft: '");
        }
        assertThatThrownBy(() -> SpawnInfo.soft("1:2000000000", 2_000_000_000)).hasMessage("MPI_Info soft: more than 4096 counts");
    }
}
