package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JointWorldTimeLimitTest {
    @Test
    void unsetOrBlankGivesTheDefault() {
        assertThat(JointWorld.seconds("spawn", "V", null, 120)).isEqualTo(120);
        assertThat(JointWorld.seconds("spawn", "V", " ", 120)).isEqualTo(120);
    }

    @Test
    void aWholeNumberOfSecondsIsTaken() {
        assertThat(JointWorld.seconds("spawn", "V", " 7 ", 120)).isEqualTo(7);
        assertThat(JointWorld.seconds("spawn", "V", "1", 120)).isEqualTo(1);
    }

    @Test
    void anythingElseIsRefusedNamingTheVariableAndTheCall() {
        for (String bad : new String[] {"soon", "0", "-5", "2.5", "99999999999"}) {
            assertThatThrownBy(() -> JointWorld.seconds("connect", "BANYAN_COMM_CONNECT_TIMEOUT", bad, 120))
                    .isInstanceOf(CommException.class)
                    .hasMessage("connect: BANYAN_COMM_CONNECT_TIMEOUT=" + bad + " is not a whole number of seconds (at least 1)");
        }
    }
}
