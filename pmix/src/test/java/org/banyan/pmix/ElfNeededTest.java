package org.banyan.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElfNeededTest {
    @TempDir
    Path dir;

    @Test
    void aRealProgramNamesItsLibrariesAndAScriptNamesNone() throws Exception {
        assertThat(ElfNeeded.of(Path.of("/bin/sh"))).contains("libc.so.6");
        Path script = dir.resolve("s.sh");
        Files.writeString(script, "#!/bin/sh\necho hi\n");
        assertThat(ElfNeeded.of(script)).isEmpty();
        assertThat(ElfNeeded.of(dir.resolve("missing"))).isEmpty();
    }

    @Test
    void openMpiAndPmixLibrariesMeanPmix() {
        assertThat(ElfNeeded.pmixLibrary(List.of("libc.so.6", "libmpi.so.40"))).isEqualTo("libmpi.so.40");
        assertThat(ElfNeeded.pmixLibrary(List.of("libpmix.so.2"))).isEqualTo("libpmix.so.2");
        assertThat(ElfNeeded.pmixLibrary(List.of("libmpich.so.12", "libc.so.6"))).as("MPICH: PMI").isNull();
        assertThat(ElfNeeded.pmixLibrary(List.of("libmpi.so.12"))).as("MPICH's libmpi").isNull();
    }

    @Test
    void mpichLibrariesAreToldApartFromOpenMpis() {
        assertThat(ElfNeeded.mpichLibrary(List.of("libc.so.6", "libmpich.so.12"))).isEqualTo("libmpich.so.12");
        assertThat(ElfNeeded.mpichLibrary(List.of("libmpi.so.12"))).isEqualTo("libmpi.so.12");
        assertThat(ElfNeeded.mpichLibrary(List.of("libmpi.so.40", "libc.so.6"))).as("Open MPI").isNull();
    }
}
