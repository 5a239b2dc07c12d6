package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Program names, arguments, variables, hostfile and task-file names that are not UTF-8 (a Latin-1
 * {@code caf\xe9}) reach the rank's {@code execve} as the very bytes banyan was given, under any
 * locale: the JVM had turned each such byte into U+FFFD ('?' at the rank). The bytes are made by
 * the shell (printf's octal escapes) and checked as bytes (od), so that no JVM decodes them here.
 */
class RawBytesTest {
    private static Result bash(Path dir, String locale, String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script, Banyan.SCRIPT.toString(), dir.toString())
                .directory(dir.toFile()).redirectInput(new java.io.File("/dev/null"));
        if (locale != null) {
            pb.environment().put("LC_ALL", locale);
        }
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), new String(out, StandardCharsets.ISO_8859_1), err);
    }

    private record Result(int status, String out, String err) {}

    /** od's one line of octal bytes for what the rank printed. */
    private static final String OD = " | od -An -tx1 | tr -d ' \\n'; echo";

    @ParameterizedTest
    @ValueSource(strings = {"C", "C.UTF-8"})
    void argumentsVariablesAndProgramNamesAreBytes(String locale, @TempDir Path dir) throws Exception {
        String script = """
                cd "$1"
                latin="$(printf 'caf\\351')"
                printf 'bonjour\\n' > "$latin.txt"
                cp /bin/echo "./$(printf 'ech\\366')"
                "$0" run -n 2 cat "$latin.txt" || exit 1
                "$0" run -n 1 "./$(printf 'ech\\366')" "$(printf 'a\\377b')"%1$s
                X="$(printf 'v\\376')" "$0" run -n 1 -x X sh -c 'printf %%s "$X"'%1$s
                Y="$(printf 'w\\375')" "$0" run -n 1 sh -c 'printf %%s "$Y"'%1$s
                printf 'localhost slots=2\\n' > "$(printf 'h\\366sts')"
                "$0" run --hostfile "$(printf 'h\\366sts')" -n 2 echo fromhostfile || exit 1
                """.formatted(OD);
        Result r = bash(dir, locale, script);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                bonjour
                bonjour
                61ff620a
                76fe
                77fd
                fromhostfile
                fromhostfile
                """);
    }

    @Test
    void aPathOptionThatCannotTakeBytesSaysSoInOneLine(@TempDir Path dir) throws Exception {
        Result r = bash(dir, null, """
                mkdir "$(printf 'd\\351')"
                "$0" run --wdir "$(printf 'd\\351')" -n 1 pwd
                """);
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("bytes that are not UTF-8").doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
        Result missing = bash(dir, null, "\"$0\" run --hostfile \"$(printf 'nope\\351')\" -n 1 true");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("hostfile").contains("no such file").doesNotContain("/proc/self/fd");
    }

    /** Through a DVM: the client's argv and variables cross its wire, and a task file is found by its bytes. */
    @Test
    void tasksOnADvmGetTheirBytes(@TempDir Path dir) throws Exception {
        String script = """
                cd "$1"
                "$0" dvm start --uri-file "$1/dvm.uri" >/dev/null || exit 1
                trap '"$0" dvm stop --dvm "$1/dvm.uri" >/dev/null' EXIT
                Z="$(printf 'z\\371')" "$0" submit --dvm "$1/dvm.uri" --session "$1/s1" -x Z -- \\
                    sh -c 'printf "%s|%s" "$0" "$Z"' "$(printf 'a\\377')" 2>/dev/null || exit 1
                od -An -tx1 s1/task.000000/task.000000.out | tr -d ' \\n'; echo
                printf '{"executable": "echo", "arguments": ["from-file"]}\\n' > "$(printf 't\\344sks.json')"
                "$0" submit --dvm "$1/dvm.uri" --session "$1/s2" --tasks "$(printf 't\\344sks.json')" 2>/dev/null || exit 1
                cat s2/task.000000/task.000000.out
                """;
        Result r = bash(dir, "C", script);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("61ff7c7af9\nfrom-file\n");
    }
}
