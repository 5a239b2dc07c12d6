package org.banyan.core.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PmiV1CodecTest {
    @Test
    void parsesCommandAndAttributes() {
        PmiCommand c = PmiV1Codec.parse("cmd=put kvsname=kvs_1 key=P0-businesscard value=description#vm$port#42$ifname#1.2.3.4$");
        assertThat(c.name()).isEqualTo("put");
        assertThat(c.get("kvsname")).isEqualTo("kvs_1");
        assertThat(c.get("key")).isEqualTo("P0-businesscard");
        assertThat(c.get("value")).isEqualTo("description#vm$port#42$ifname#1.2.3.4$");
    }

    @Test
    void valueMayContainEqualsSigns() {
        assertThat(PmiV1Codec.parse("cmd=put key=k value=a=b==").get("value")).isEqualTo("a=b==");
    }

    @Test
    void abortMessageRunsToTheEndOfTheLine() {
        PmiCommand c = PmiV1Codec.parse("cmd=abort exitcode=7 message=application called MPI_Abort(MPI_COMM_WORLD, 7)");
        assertThat(c.name()).isEqualTo("abort");
        assertThat(c.getInt("exitcode", 0)).isEqualTo(7);
        assertThat(c.get("message")).isEqualTo("application called MPI_Abort(MPI_COMM_WORLD, 7)");
    }

    @Test
    void linesWithoutCmdAreNotCommands() {
        assertThat(PmiV1Codec.parse("hello world")).isNull();
        assertThat(PmiV1Codec.parse("cmd=")).isNull();
        assertThat(PmiV1Codec.parse("mcmd=spawn").name()).isEqualTo("mcmd:spawn");
    }

    @Test
    void formatsReplies() {
        assertThat(PmiV1Codec.reply("barrier_out")).isEqualTo("cmd=barrier_out\n");
        assertThat(PmiV1Codec.reply("get_result", "rc", "0", "msg", "success", "value", "v"))
                .isEqualTo("cmd=get_result rc=0 msg=success value=v\n");
    }

    @Test
    void aMultiLineCommandKeepsWholeValues() {
        PmiCommand c = PmiV1Codec.parse("mcmd=spawn\nnprocs=2\nexecname=./a.out\ntotspawns=1\nspawnssofar=1\n"
                + "argcnt=1\narg1=two  words=x\npreput_num=0\ninfo_num=0");
        assertThat(c.name()).isEqualTo("mcmd:spawn");
        assertThat(c.get("arg1")).isEqualTo("two  words=x");
        assertThat(c.getInt("nprocs", 0)).isEqualTo(2);
        assertThat(c.getInt("totspawns", 0)).isEqualTo(1);
    }
}
