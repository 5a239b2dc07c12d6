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
}
