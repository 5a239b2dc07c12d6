package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The quick client's request as the banyan script writes it, and what a stranger may send instead. */
class QuickRequestTest {
    private static QuickRequest read(byte[] bytes) throws IOException {
        return QuickRequest.read(new ByteArrayInputStream(bytes));
    }

    private static byte[] fields(String... f) {
        StringBuilder b = new StringBuilder();
        for (String s : f) {
            b.append(s).append('\0');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRequestComesBackAsItWasWrittenWithArgumentsOfAnyText() throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/bin:/bin");
        env.put("MULTI", "line one\nline two=with equals");
        env.put("EMPTY", "");
        QuickRequest r = new QuickRequest("ab12", 4242, 10, 11, 12,
                List.of("run", "--dvm", "d.uri", "-n", "2", "echo", "", "héllo\nworld", "a=b"), env);
        QuickRequest back = read(r.encode());
        assertThat(back.secret()).isEqualTo("ab12");
        assertThat(back.pid()).isEqualTo(4242);
        assertThat(List.of(back.in(), back.out(), back.err())).containsExactly(10, 11, 12);
        assertThat(back.args()).isEqualTo(r.args());
        assertThat(back.env()).containsExactlyEntriesOf(env);
    }

    @Test
    void whatTheScriptWritesIsRead() throws IOException {
        // printf '%s\0' BNYQUICK1 "$secret" "$$" "$in" "$out" "$err" "$#" "$@" "${#env[@]}" "${env[@]}"
        QuickRequest r = read(fields("BNYQUICK1", "s3cret", "77", "10", "11", "12", "3", "run", "--dvm", "/tmp/d.uri", "1", "HOME=/root"));
        assertThat(r.args()).containsExactly("run", "--dvm", "/tmp/d.uri");
        assertThat(r.env()).containsExactly(Map.entry("HOME", "/root"));
    }

    @Test
    void theSecretAndTheEnvironmentNeverShowInItsText() {
        QuickRequest r = new QuickRequest("topsecret", 1, 0, 1, 2, List.of("run"), Map.of("TOKEN", "hidden"));
        assertThat(r.toString()).doesNotContain("topsecret").doesNotContain("hidden").contains("1 variables");
    }

    @Test
    void aWebRequestOrAnotherGreetingIsRefused() {
        assertThatThrownBy(() -> read("GET / HTTP/1.1\r\nHost: x\r\n\r\n\0".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(QuickRequest.Malformed.class).hasMessageContaining("greeting");
        assertThatThrownBy(() -> read("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(QuickRequest.Malformed.class).hasMessageContaining("greeting");
        assertThatThrownBy(() -> read("BNYQ".getBytes(StandardCharsets.US_ASCII))).isInstanceOf(EOFException.class);
    }

    @Test
    void numbersAndPathsThatAreNotAreRefused() {
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "-5", "0", "1", "2", "0", "0"))).hasMessageContaining("pid");
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "0", "0", "1", "2", "0", "0"))).hasMessageContaining("pid 0");
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "99999999999", "0", "1", "2", "0", "0"))).hasMessageContaining("pid");
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "5", "0", "-1", "2", "0", "0"))).hasMessageContaining("out");
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "5", "0", "1", "9999999", "0", "0"))).hasMessageContaining("err");
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "5", "0", "1", "2", "70000"))).hasMessageContaining("argc 70000 is over");
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "5", "0", "1", "2", "0", "1", "NOEQUALS")))
                .hasMessageContaining("not NAME=VALUE");
        assertThatThrownBy(() -> read(fields("BNYQUICK1", "s", "5", "0", "1", "2", "0", "1", "=value")))
                .hasMessageContaining("not NAME=VALUE");
    }

    /** An endless field, or endless small fields, end at the bounds, having read no more than them. */
    @Test
    void endlessInputEndsAtTheBounds() {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'x';
            }
        };
        assertThatThrownBy(() -> QuickRequest.read(endless)).isInstanceOf(QuickRequest.Malformed.class)
                .hasMessageContaining("greeting");
        byte[] magic = fields("BNYQUICK1");
        InputStream endlessSecret = new InputStream() {
            private int at;

            @Override
            public int read() {
                return at < magic.length ? magic[at++] : 'x';
            }
        };
        assertThatThrownBy(() -> QuickRequest.read(endlessSecret)).isInstanceOf(QuickRequest.Malformed.class)
                .hasMessageContaining("a field is over 1 MiB");
        byte[] head = fields("BNYQUICK1", "s", "5", "0", "1", "2", "65536");
        InputStream many = new InputStream() {
            private int at;
            private int i;

            @Override
            public int read() {
                if (at < head.length) {
                    return head[at++];
                }
                i++;
                return i % 200_000 == 0 ? 0 : 'y'; // fields just under the field bound
            }
        };
        assertThatThrownBy(() -> QuickRequest.read(many)).isInstanceOf(QuickRequest.Malformed.class)
                .hasMessageContaining("the request is over 8 MiB");
    }
}
