package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a look into a rank's memory map finds, on this test's own JVM with files mapped under MPI libraries' names. */
class MpiSightingsTest {
    static final long ME = ProcessHandle.current().pid();

    static MappedByteBuffer map(Path file) throws IOException {
        Files.write(file, new byte[4096]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
        }
    }

    @Test
    void anMpiLibraryMappedIntoAProcessIsNamedAndItsLanguageLayersAreNot(@TempDir Path dir) throws IOException {
        MappedByteBuffer fortran = map(dir.resolve("libmpi_mpifh.so.40"));
        assertThat(MpiSightings.mpiLibrary(ME)).as("the Fortran layer alone is not MPI's library")
                .isNotEqualTo("libmpi_mpifh.so.40");
        MappedByteBuffer mpich = map(dir.resolve("libmpich.so.12.3.2"));
        assertThat(MpiSightings.mpiLibrary(ME)).isIn("libmpich.so.12.3.2", "liboshmem.so.40.30.4");
        assertThat(MpiSightings.look(ME, null).library()).isIn("libmpich.so.12.3.2", "liboshmem.so.40.30.4");
        assertThat(fortran.capacity() + mpich.capacity()).isEqualTo(8192); // kept mapped until here
    }

    /** A later look does not read the maps again: the library it was given stands, whatever the maps now hold. */
    @Test
    void aLibraryAnEarlierLookFoundIsKept(@TempDir Path dir) throws IOException {
        MappedByteBuffer mpich = map(dir.resolve("libmpich.so.12"));
        assertThat(MpiSightings.look(ME, "liboshmem.so.40")).isEqualTo(new MpiSightings.Sighting("liboshmem.so.40", false));
        assertThat(MpiSightings.look(ME, null).library()).as("what a first look reads").isNotEqualTo("liboshmem.so.40")
                .isNotNull();
        assertThat(mpich.capacity()).isEqualTo(4096);
    }

    @Test
    void aLibraryDeletedSinceItWasMappedIsNamedWithoutTheKernelsMark(@TempDir Path dir) throws IOException {
        MappedByteBuffer shmem = map(dir.resolve("liboshmem.so.40.30.4"));
        Files.delete(dir.resolve("liboshmem.so.40.30.4"));
        assertThat(MpiSightings.mpiLibrary(ME)).isIn("liboshmem.so.40.30.4", "libmpich.so.12.3.2"); // whichever test ran first
        assertThat(shmem.capacity()).isEqualTo(4096);
    }

    @Test
    void aProcessThatIsGoneHasNoLibrary() {
        assertThat(MpiSightings.mpiLibrary(Long.MAX_VALUE)).isNull();
    }
}
