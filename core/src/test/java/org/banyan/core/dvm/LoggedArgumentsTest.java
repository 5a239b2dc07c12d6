package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoggedArgumentsTest {
    @Test
    void variablesValuesAreLeftOutAndTheRestIsShown() {
        assertThat(LoggedArguments.of(List.of("-x", "API_KEY=s3cret", "-x", "PATH", "-n", "2", "--", "./app", "a b")))
                .isEqualTo("-x API_KEY=… -x PATH -n 2 -- ./app a b");
        assertThat(LoggedArguments.of(List.of("--env=TOKEN=abc=def", "-genv", "PASS", "word", "-env", "K", "v", "prog")))
                .isEqualTo("--env=TOKEN=… -genv PASS … -env K … prog");
        assertThat(LoggedArguments.of(List.of("--cc", "1-3", "./sim", "--seed", "{cc}"))).isEqualTo("--cc 1-3 ./sim --seed {cc}");
        assertThat(LoggedArguments.of(List.of("MULTI=line\nvalue"))).isEqualTo("MULTI=…");
    }
}
