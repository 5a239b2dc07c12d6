package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DashboardServerTest {
    /** A bind address a client sends is taken only as an IP literal: a name would have the head's loop wait for DNS. */
    @Test
    void aBindAddressIsAnIpLiteralNeverAName() throws Exception {
        assertThat(DashboardServer.literal("127.0.0.1").getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(DashboardServer.literal("::1").isLoopbackAddress()).isTrue();
        for (String name : new String[] {"localhost", "example.invalid", "", "127.0.0.1 "}) {
            assertThatThrownBy(() -> DashboardServer.literal(name)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + name + "' is not an IP address (127.0.0.1, 0.0.0.0, ::1)");
        }
        assertThatThrownBy(() -> new DashboardServer("localhost", 0, "s")).hasMessageContaining("is not an IP address");
    }
}
