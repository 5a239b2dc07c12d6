package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PMI-1 client written by hand (bash's /dev/tcp), for what no MPI build here exercises:
 * Debian's MPICH is built without spawn, so its multi-line {@code mcmd=spawn} is sent raw, as
 * MPICH's simple PMI client writes {@code PMI_Spawn_multiple}: a block per command, then one read.
 */
class RawPmiClientTest {
    @TempDir
    Path dir;

    @Test
    void spawnMultipleIsOneRequestWithOneRefusalAndTheClientStaysInStep() throws Exception {
        Path client = dir.resolve("client.sh");
        Files.writeString(client, """
                #!/bin/bash
                exec 3<>/dev/tcp/${PMI_PORT%:*}/${PMI_PORT##*:}
                ask() { printf "$1" >&3; IFS= read -r line <&3; echo "$line"; }
                ask 'cmd=init pmi_version=1 pmi_subversion=1\\n'
                block() {
                    printf 'mcmd=spawn\\nnprocs=1\\nexecname=/bin/echo\\ntotspawns=2\\nspawnssofar=%d\\n' "$1" >&3
                    printf 'argcnt=1\\narg1=two words\\npreput_num=1\\npreput_key_0=PARENT_ROOT_PORT_NAME\\n' >&3
                    printf 'preput_val_0=tag#0$description#x$\\ninfo_num=0\\nendcmd\\n' >&3
                }
                block 1
                block 2
                IFS= read -r line <&3; echo "$line"
                ask 'cmd=get_my_kvsname\\n'
                ask 'cmd=finalize\\n'
                """);
        client.toFile().setExecutable(true);
        Banyan.Result r = Banyan.run("run", "-n", "1", "--mpi", "pmi", client.toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        String[] lines = r.stdout().split("\n");
        assertThat(lines).hasSize(4);
        assertThat(lines[0]).startsWith("cmd=response_to_init ");
        assertThat(lines[1]).isEqualTo("cmd=spawn_result rc=-1 errmsg=banyan_serves_MPI_Comm_spawn_to_PMIx_programs_only");
        assertThat(lines[2]).startsWith("cmd=my_kvsname kvsname=");
        assertThat(lines[3]).isEqualTo("cmd=finalize_ack");
    }

    /**
     * Another local user who finds a job's PMI_PORT (it is in every rank's environment) can
     * neither abort the job nor pose as a rank: the daemon closes the connection before reading
     * it and says so. Before, cmd=abort exitcode=42 from uid 65534 ended root's job with 42.
     */
    @Test
    void anotherUsersConnectionIsRefusedAndTheJobGoesOn() throws Exception {
        String m = Banyan.marker();
        Process job = Banyan.builder(java.util.List.of("run", "-n", "1", "--mpi", "pmi", "sh", "-c",
                "sleep 3; echo done " + m)).start();
        String port = null;
        for (int i = 0; i < 200 && port == null; i++) {
            for (ProcessHandle h : job.toHandle().descendants().toList()) {
                try {
                    String env = Files.readString(Path.of("/proc", Long.toString(h.pid()), "environ"));
                    for (String kv : env.split("\0")) {
                        if (kv.startsWith("PMI_PORT=") && h.info().commandLine().orElse("").contains(m)) {
                            port = kv.substring("PMI_PORT=".length());
                        }
                    }
                } catch (java.io.IOException e) {
                    // gone, or not readable
                }
            }
            Thread.sleep(20);
        }
        assertThat(port).as("the rank's PMI_PORT").isNotNull();
        Process stranger = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bash", "-c",
                "exec 3<>/dev/tcp/${0%:*}/${0##*:} && printf 'cmd=init pmi_version=1 pmi_subversion=1\\ncmd=initack pmiid=0\\n"
                        + "cmd=abort exitcode=42\\n' >&3; timeout 5 cat <&3", port).redirectErrorStream(true).start();
        String said = new String(stranger.getInputStream().readAllBytes());
        assertThat(stranger.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(said).as("what the stranger was told").doesNotContain("cmd=");
        assertThat(job.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String out = new String(job.getInputStream().readAllBytes());
        String err = new String(job.getErrorStream().readAllBytes());
        assertThat(job.exitValue()).as(err).isZero();
        assertThat(out).isEqualTo("done " + m + "\n");
        assertThat(err).startsWith("banyand: refused a PMI connection to job 1 from /127.0.0.1:")
                .contains(" of uid 65534: only the job's user may connect");
    }
}
