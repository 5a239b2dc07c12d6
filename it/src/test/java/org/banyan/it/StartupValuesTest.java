package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an Open MPI rank reads at start-up, under mpirun and under banyan run: the environment
 * variables and PMIx attributes {@code bench/startup-values.c} prints, rank 1's, equal but for
 * the few that differ on purpose (listed here and in docs/pmix.md).
 */
class StartupValuesTest {
    /** Values that differ by design: mpirun draws the transport key at random; banyan registers more than mpirun 4.1 does. */
    static final Map<String, String> DIFFERS = Map.ofEntries(
            Map.entry("env OMPI_MCA_orte_precondition_transports", "a job's key: mpirun's is random, banyan's made from the namespace"),
            Map.entry("pmix pmix.app.size", "banyan registers it (mpirun 4.1 does not)"),
            Map.entry("pmix pmix.aldr", "banyan registers it (mpirun 4.1 does not)"),
            Map.entry("pmix pmix.apprank", "banyan registers it (mpirun 4.1 does not)"),
            Map.entry("pmix pmix.mapby", "mpirun names its own mapper's policy (BYCORE, BYNUMA), banyan BYSLOT"),
            Map.entry("pmix pmix.bindto", "mpirun adds its qualifiers (IF-SUPPORTED)"),
            Map.entry("pmix pmix.ndosub", "Open MPI 5's oversubscription flag: banyan sets it, mpirun 4.1 does not"),
            Map.entry("pmix pmix.locstr", "unbound: mpirun registers an empty string, banyan none"),
            Map.entry("topo pmix.hwlocxml2", "banyan's server shares its hwloc topology (mpirun 4.1 hands it over otherwise)"),
            Map.entry("topo pmix.hwlocxml1", "idem, in hwloc 1's XML"),
            Map.entry("topo pmix.hwlocfile", "idem, in hwloc's shared memory"));

    @TempDir
    static Path dir;
    static Path probe;

    @BeforeAll
    static void build() throws Exception {
        Path include = Path.of("/usr/lib/x86_64-linux-gnu/pmix2/include");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpirun.openmpi")) && Files.isDirectory(include),
                "mpirun.openmpi and libpmix-dev are needed");
        probe = dir.resolve("startup-values");
        Process cc = new ProcessBuilder("gcc", "-O1", "-I" + include, "-o", probe.toString(),
                Banyan.ROOT.resolve("bench/startup-values.c").toString(), "-L/usr/lib/x86_64-linux-gnu/pmix2/lib", "-lpmix")
                .redirectErrorStream(true).start();
        String text = new String(cc.getInputStream().readAllBytes());
        assertThat(cc.waitFor()).as(text).isZero();
    }

    static Map<String, String> values(List<String> launcher) throws Exception {
        List<String> command = new ArrayList<>(launcher);
        // every rank runs the probe (mpirun calls a rank that ends without PMIx_Init, while another
        // called it, an abnormal end), rank 1's output is kept
        command.addAll(List.of("sh", "-c", "if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then exec " + probe + "; else exec " + probe
                + " >/dev/null; fi"));
        ProcessBuilder pb = launcher.getFirst().equals("banyan") ? Banyan.builder(command.subList(1, command.size()))
                : new ProcessBuilder(command);
        // the same security for both: mpirun's server would offer munge where munged runs, banyan's never does
        pb.environment().put("PMIX_MCA_psec", "native");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = pb.directory(dir.toFile()).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("%s: %s\n%s", launcher, out, Files.readString(err)).isZero();
        Map<String, String> values = new TreeMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && (line.startsWith("env ") || line.startsWith("pmix ") || line.startsWith("topo "))) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        assertThat(values).containsKey("pmix pmix.job.size");
        return values;
    }

    static void assertSame(Map<String, String> mpirun, Map<String, String> banyan) {
        Map<String, String> expected = new TreeMap<>(mpirun);
        Map<String, String> actual = new TreeMap<>(banyan);
        expected.keySet().removeAll(DIFFERS.keySet());
        actual.keySet().removeAll(DIFFERS.keySet());
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void twoRanksBoundToCoresReadWhatMpirunGives() throws Exception {
        Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two cores to bind to");
        Map<String, String> mpirun = values(List.of("mpirun.openmpi", "--allow-run-as-root", "-n", "2", "--bind-to", "core"));
        Map<String, String> banyan = values(List.of("banyan", "run", "-n", "2", "--bind-to", "core"));
        assertSame(mpirun, banyan);
        assertThat(banyan).containsEntry("pmix pmix.cpuset", "1").containsEntry("env OMPI_MCA_mpi_oversubscribe", "0");
        assertThat(banyan.get("pmix pmix.locstr")).isEqualTo(mpirun.get("pmix pmix.locstr")).startsWith("SK0:");
    }

    @Test
    void anOversubscribedHostReadsWhatMpirunGivesAndTheFlag() throws Exception {
        int ranks = Runtime.getRuntime().availableProcessors() * 2;
        Map<String, String> mpirun = values(List.of("mpirun.openmpi", "--allow-run-as-root", "--oversubscribe", "-n",
                Integer.toString(ranks)));
        Map<String, String> banyan = values(List.of("banyan", "run", "--oversubscribe", "-n", Integer.toString(ranks)));
        assertSame(mpirun, banyan);
        assertThat(banyan).containsEntry("env OMPI_MCA_mpi_oversubscribe", "1").containsEntry("pmix pmix.ndosub", "true");
    }

    /**
     * The daemon's server shares the topology it discovered, so an Open MPI rank adopts it instead
     * of discovering the machine again at start-up (each of 16 ranks read 151 /sys files, 49 of
     * them PCI configuration space, and -n 16 took 1.26× mpirun's time; with it, as long).
     */
    @Test
    void theServerSharesTheMachinesTopologyWithItsRanks() throws Exception {
        Map<String, String> banyan = values(List.of("banyan", "run", "-n", "2"));
        assertThat(banyan).containsEntry("topo pmix.hwlocxml2", "given").containsEntry("topo pmix.hwlocfile", "given");
    }
}
