package org.banyan.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BanyanTest {
    @Test
    void outsideBanyanInitSaysSoAndHow() {
        assertThatThrownBy(() -> Banyan.init(Map.of("PATH", "/bin")))
                .isInstanceOf(NotUnderBanyanException.class)
                .hasMessageContaining("not started by banyan run")
                .hasMessageContaining("banyan run -n N java");
    }

    @Test
    void anUnreachableDaemonIsNamed() {
        assertThatThrownBy(() -> Banyan.init(Map.of("PMI_PORT", "127.0.0.1:1", "BANYAN_RANK", "0")))
                .isInstanceOf(BanyanException.class)
                .hasMessageContaining("cannot reach the daemon's PMI endpoint 127.0.0.1:1");
    }

    @Test
    void answersAreParsedWithDoubledSemicolons() {
        assertThat(Pmi2Connection.parse("cmd=kvs-get-response;thrid=7;found=TRUE;value=a;;b;rc=0;"))
                .containsEntry("cmd", "kvs-get-response").containsEntry("thrid", "7").containsEntry("value", "a;b")
                .containsEntry("rc", "0");
    }
}
