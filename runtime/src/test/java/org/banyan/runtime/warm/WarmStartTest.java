package org.banyan.runtime.warm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The activation a daemon writes to a waiting JVM, as its agent reads it; anything else is no activation. */
class WarmStartTest {
    @Test
    void anActivationReadsBackAsTheRanksVariables() throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BANYAN_RANK", "5");
        env.put("EMPTY", "");
        env.put("UNICODE", "ünï ✓");
        env.put("SPACES AND=EQUALS", "a b=c");
        assertThat(WarmStart.read(new ByteArrayInputStream(WarmStart.activation(env)))).isEqualTo(env);
        assertThat(WarmStart.read(new ByteArrayInputStream(WarmStart.activation(Map.of())))).isEmpty();
    }

    @Test
    void theEndBeforeAWholeActivationOrAnythingElseIsNone() {
        byte[] whole = WarmStart.activation(Map.of("BANYAN_RANK", "5"));
        assertThatThrownBy(() -> WarmStart.read(new ByteArrayInputStream(new byte[0]))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> WarmStart.read(new ByteArrayInputStream(Arrays.copyOf(whole, whole.length - 1))))
                .isInstanceOf(IOException.class);
        byte[] wrongMagic = whole.clone();
        wrongMagic[0] ^= 1;
        assertThatThrownBy(() -> WarmStart.read(new ByteArrayInputStream(wrongMagic))).hasMessage("not an activation");
        byte[] hugeCount = whole.clone();
        hugeCount[4] = (byte) 0x7f; // 2 billion variables
        assertThatThrownBy(() -> WarmStart.read(new ByteArrayInputStream(hugeCount))).hasMessage("not an activation");
        byte[] hugeString = whole.clone();
        hugeString[8] = (byte) 0x7f; // a name of 2 GB
        assertThatThrownBy(() -> WarmStart.read(new ByteArrayInputStream(hugeString))).hasMessage("not an activation");
    }
}
