package org.banyan.core.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Frames as Slurm's libpmi2 (the client examples/pmi2.c links) writes them, and as Hydra answers. */
class PmiV2CodecTest {
    @Test
    void parsesTheBodiesARealClientSends() {
        PmiCommand init = PmiV2Codec.parse("cmd=fullinit;srcid=0;threaded=FALSE;");
        assertThat(init.name()).isEqualTo("fullinit");
        assertThat(init.getInt("srcid", -1)).isZero();
        assertThat(init.get("threaded")).isEqualTo("FALSE");
        PmiCommand get = PmiV2Codec.parse("cmd=kvs-get;jobid=kvs_banyan_1;srcid=3;key=k3;");
        assertThat(get.name()).isEqualTo("kvs-get");
        assertThat(get.get("jobid")).isEqualTo("kvs_banyan_1");
        assertThat(get.getInt("srcid", -1)).isEqualTo(3);
        assertThat(get.get("key")).isEqualTo("k3");
        assertThat(PmiV2Codec.parse("cmd=kvs-fence;").name()).isEqualTo("kvs-fence");
    }

    @Test
    void aDoubledSemicolonIsOneInsideAValue() {
        PmiCommand put = PmiV2Codec.parse("cmd=kvs-put;key=k0;value=card;;of;;0;");
        assertThat(put.get("value")).isEqualTo("card;of;0");
        assertThat(PmiV2Codec.frame("kvs-get-response", "found", "TRUE", "value", "card;of;0", "rc", "0"))
                .isEqualTo("    55cmd=kvs-get-response;found=TRUE;value=card;;of;;0;rc=0;");
    }

    @Test
    void framesCarryTheirBodyLengthInSixCharacters() {
        assertThat(PmiV2Codec.frame("kvs-fence-response", "rc", "0")).isEqualTo("    28cmd=kvs-fence-response;rc=0;");
        assertThat(PmiV2Codec.frame("fullinit-response", "pmi-version", "2", "pmi-subversion", "0", "rank", "0",
                "size", "1", "appnum", "0", "debugged", "FALSE", "pmiverbose", "FALSE", "rc", "0"))
                .isEqualTo("   113cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=0;size=1;appnum=0;"
                        + "debugged=FALSE;pmiverbose=FALSE;rc=0;");
    }

    @Test
    void lengthFieldsLeftOrRightAlignedAreRead() {
        assertThat(PmiV2Codec.bodyLength("    28")).isEqualTo(28);
        assertThat(PmiV2Codec.bodyLength("38    ")).isEqualTo(38); // Slurm's client pads on the right
        assertThat(PmiV2Codec.bodyLength("cmd=in")).isEqualTo(-1);
        assertThat(PmiV2Codec.bodyLength("999999")).isEqualTo(-1); // beyond 64 KiB
    }

    @Test
    void bodiesWithoutCmdAreNotCommands() {
        assertThat(PmiV2Codec.parse("key=v;")).isNull();
        assertThat(PmiV2Codec.parse("cmd=;")).isNull();
    }
}
