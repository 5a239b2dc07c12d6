package org.banyan.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.pmix.PmixRegistration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binding against the real libpmix (Debian's PMIx 4.2, which Open MPI's packages bring): the
 * server starts, takes a job's registration, and gives a rank the variables that lead its
 * client to it; shut down, it leaves nothing in its directory. (Fences and abort are exercised
 * with real Open MPI ranks in it/OpenMpiInteropTest.)
 */
class PmixServerTest {
    @TempDir
    Path tmp;

    /** The server's directory: this user's alone, named after the process, never one that was there. */
    @Test
    void theServersDirectoryIsNewAndPrivate() throws Exception {
        Path a = PmixServer.ownDirectory(tmp, "banyan-pmix-7-");
        Path b = PmixServer.ownDirectory(tmp, "banyan-pmix-7-");
        assertThat(a).isNotEqualTo(b);
        assertThat(a.getFileName().toString()).startsWith("banyan-pmix-7-");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(a))).isEqualTo("rwx------");
        assertThat(Files.isDirectory(a, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isTrue();
    }

    /** A variable of the C environment (libc's {@code getenv}), which the JVM's map does not follow. */
    private static String processEnvironment(String name) throws Throwable {
        var linker = java.lang.foreign.Linker.nativeLinker();
        var getenv = linker.downcallHandle(linker.defaultLookup().find("getenv").orElseThrow(),
                java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.ADDRESS, java.lang.foreign.ValueLayout.ADDRESS));
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            var value = (java.lang.foreign.MemorySegment) getenv.invokeExact(arena.allocateFrom(name));
            return value.equals(java.lang.foreign.MemorySegment.NULL) ? null : value.reinterpret(4096).getString(0);
        }
    }

    @Test
    void registersAJobAndSetsUpItsRanksEnvironment() throws Throwable {
        assertThat(PmixServer.installed()).as("libpmix.so.2 (apt-get install libpmix2)").isTrue();
        JobDescription job = new JobDescription(3, List.of(new AppContext("./a", List.of(), 3, Map.of(), null)),
                List.of(new Node("a", 2), new Node("b", 2)), MappingPolicy.SLOT, false, 0, "/", Modex.LAZY)
                .withPmix("banyan.test.3");
        PmixServer server = PmixServer.start(tmp);
        try {
            assertThat(PmixServer.start(tmp)).as("one per process").isSameAs(server);
            server.register(PmixRegistration.of(job, RankMap.of(job), 0), new PmixServer.Listener() {
                @Override
                public void fence(int jobId, byte[] blob) {}

                @Override
                public void abort(int jobId, int rank, int status, String message) {}

                @Override
                public void modexRequest(int jobId, int rank) {}

                @Override
                public void modexData(int token, byte[] blob) {}

                @Override
                public void nameRequest(int jobId, int token, int op, String name, String value) {}

                @Override
                public void spawn(int jobId, int token, List<AppContext> apps, List<String> hosts) {}
            });
            Map<String, String> env = server.clientEnvironment("banyan.test.3", 1);
            assertThat(env).containsEntry("PMIX_NAMESPACE", "banyan.test.3").containsEntry("PMIX_RANK", "1")
                    .containsKey("PMIX_SERVER_URI4").containsKey("PMIX_VERSION");
            assertThat(env.get("PMIX_SERVER_TMPDIR")).startsWith(tmp.toString());
            if (System.getenv("HWLOC_COMPONENTS") == null) {
                // hwloc's X display probe is off for the topology the server shares; a user's choice stands
                assertThat(processEnvironment("HWLOC_COMPONENTS")).isEqualTo("-gl");
            }
            server.fenceDone(3, List.of(new byte[] {1, 2})); // no fence in progress: nothing to release
            server.deregister(3);
        } finally {
            PmixServer.shutdown();
        }
        try (var left = Files.list(tmp)) {
            assertThat(left.toList()).as("the server's directory is removed").isEmpty();
        }
    }
}
