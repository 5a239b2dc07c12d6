package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The simulator may not re-implement protocol logic: the real drivers and the simulator must
 * drive the very same core classes, and the simulator must define no core of its own. Checked on
 * the compiled classes of the shipped jar (their constant pools name the classes they use).
 */
class SameCoresTest {
    static final List<String> CORES = List.of("org/banyan/core/head/HeadCore", "org/banyan/core/daemon/DaemonCore",
            "org/banyan/core/dvm/DvmCore");

    static String classBytes(FileSystem jar, String name) throws Exception {
        try (InputStream in = Files.newInputStream(jar.getPath("/" + name + ".class"))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void realDriversAndSimulatorUseTheSameCoreClasses() throws Exception {
        Path jar = Banyan.ROOT.resolve("cli/target/banyan.jar");
        try (FileSystem fs = FileSystems.newFileSystem(URI.create("jar:" + jar.toUri()), Map.of())) {
            String sim = classBytes(fs, "org/banyan/sim/LaunchSimulation");
            String head = classBytes(fs, "org/banyan/runtime/head/HeadDriver");
            String daemon = classBytes(fs, "org/banyan/runtime/daemon/DaemonDriver");
            assertThat(sim).contains(CORES.get(0)).contains(CORES.get(1));
            assertThat(head).contains(CORES.get(0));
            assertThat(daemon).contains(CORES.get(1));
            // the DVM: its driver and the pilot simulation drive the same core
            assertThat(classBytes(fs, "org/banyan/runtime/dvm/DvmHead")).contains(CORES.get(2));
            assertThat(classBytes(fs, "org/banyan/sim/PilotSimulation")).contains(CORES.get(2));
            try (Stream<Path> files = Files.walk(fs.getPath("/org/banyan/sim"))) {
                List<String> simClasses = files.map(Path::toString).filter(p -> p.endsWith(".class")).toList();
                assertThat(simClasses).isNotEmpty().noneMatch(p -> p.contains("Core"));
                for (String p : simClasses) {
                    // No simulator class may decode or encode the protocol itself.
                    String bytes = new String(Files.readAllBytes(fs.getPath(p)), StandardCharsets.ISO_8859_1);
                    assertThat(bytes).as(p).doesNotContain("org/banyan/core/daemon/PmiServer");
                }
            }
        }
    }
}
