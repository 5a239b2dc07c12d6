package org.banyan.cli.options;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JSON as Banyan's input files are read: a key given twice in one object is refused (Jackson
 * took the last value silently), and, where a file holds one value, anything after it; and
 * Jackson's words for those refusals turned into the key or a yes, so that each reader says
 * them in its own line.
 */
public final class StrictJson {
    /** Jackson's words for a key given twice in one object. */
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'");

    private StrictJson() {}

    /**
     * A reader of values one after the other from one parser (a task file's lines), {@code #}
     * comments allowed.
     */
    public static ObjectMapper withComments() {
        JsonFactoryBuilder f = new JsonFactoryBuilder();
        f.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).enable(JsonReadFeature.ALLOW_YAML_COMMENTS);
        return new ObjectMapper(f.build());
    }

    /** A reader of one value per input: anything after it is refused. */
    public static ObjectMapper oneValue() {
        JsonFactoryBuilder f = new JsonFactoryBuilder();
        f.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
        return new ObjectMapper(f.build()).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /** The key {@code e} says was given twice, or null when it says something else. */
    public static String duplicatedKey(JsonProcessingException e) {
        Matcher twice = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
        return twice.lookingAt() ? twice.group(1) : null;
    }

    /** Whether {@code e} says that something came after the value. */
    public static boolean moreAfterTheValue(JsonProcessingException e) {
        return e instanceof MismatchedInputException && e.getOriginalMessage() != null
                && e.getOriginalMessage().startsWith("Trailing token");
    }
}
