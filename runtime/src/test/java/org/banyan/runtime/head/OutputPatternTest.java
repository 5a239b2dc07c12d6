package org.banyan.runtime.head;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** mpiexec.hydra's output patterns: its four letters expanded, anything else kept as written. */
class OutputPatternTest {
    @Test
    void hydrasLettersAreExpandedAndTheRestIsLiteral() {
        assertThat(OutputPattern.expand("[%r] ", 12, "node3", 2, 0)).isEqualTo("[12] ");
        assertThat(OutputPattern.expand("out.%g.%p.%h.%r", 5, "node3", 2, 1)).isEqualTo("out.1.2.node3.5");
        assertThat(OutputPattern.expand("100% %x %", 0, "h", 0, 0)).as("unknown letters and a last %").isEqualTo("100% %x %");
        assertThat(OutputPattern.expand("plain", 0, "h", 0, 0)).isEqualTo("plain");
        assertThat(new OutputOptions(false, "%h ", false, null, false, false, null, null, false).namesHosts()).isTrue();
        assertThat(new OutputOptions(false, OutputOptions.LABEL, false, null, false, false, "o.%r", null, false).namesHosts()).isFalse();
    }
}
