package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** BANYAN_PMI_TRACE shows every PMI line but the secrets daemons hand to ranks (it printed them). */
class PmiTraceTest {
    private static final String HEX = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    @Test
    void secretsAreLeftOutAndTheRestShown() {
        assertThat(PmiListener.traced("cmd=info-getjobattr-response;found=TRUE;value=" + HEX + ";rc=0;"))
                .isEqualTo("cmd=info-getjobattr-response;found=TRUE;value=(secret);rc=0;");
        assertThat(PmiListener.traced("cmd=banyan-join-response;cards=a=1\nb=2\n\fworld-secret=" + HEX + "\f;rc=0;"))
                .isEqualTo("cmd=banyan-join-response;cards=a=1\nb=2\n\fworld-secret=(secret)\f;rc=0;");
        assertThat(PmiListener.traced("cmd=get_result rc=0 value=abc123 msg=success"))
                .isEqualTo("cmd=get_result rc=0 value=abc123 msg=success");
        assertThat(PmiListener.traced("value=" + HEX + "00")).as("a longer value is no secret of ours").isEqualTo("value=" + HEX + "00");
    }
}
