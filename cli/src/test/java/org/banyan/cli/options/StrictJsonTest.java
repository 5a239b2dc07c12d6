package org.banyan.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.api.Test;

class StrictJsonTest {
    @Test
    void aKeyGivenTwiceIsNamed() {
        JsonProcessingException e = catchThrowableOfType(JsonProcessingException.class,
                () -> StrictJson.oneValue().readTree("{\"a b\": 1, \"a b\": 2}"));
        assertThat(StrictJson.duplicatedKey(e)).isEqualTo("a b");
        assertThat(StrictJson.moreAfterTheValue(e)).isFalse();
        JsonProcessingException nested = catchThrowableOfType(JsonProcessingException.class,
                () -> StrictJson.withComments().readTree("{\"x\": {\"n\": 1, \"n\": 1}} # twice"));
        assertThat(StrictJson.duplicatedKey(nested)).isEqualTo("n");
    }

    @Test
    void oneValueRefusesWhatComesAfterItAndCommentsAreOnlyForTaskFiles() throws Exception {
        JsonProcessingException e = catchThrowableOfType(JsonProcessingException.class,
                () -> StrictJson.oneValue().readTree("{\"a\": 1} {\"b\": 2}"));
        assertThat(StrictJson.moreAfterTheValue(e)).isTrue();
        assertThat(StrictJson.duplicatedKey(e)).isNull();
        assertThat(StrictJson.withComments().readTree("{\"a\": 1} # why").get("a").asInt()).isEqualTo(1);
        assertThat(catchThrowableOfType(JsonProcessingException.class, () -> StrictJson.oneValue().readTree("{\"a\": 1} # why")))
                .isNotNull();
    }
}
