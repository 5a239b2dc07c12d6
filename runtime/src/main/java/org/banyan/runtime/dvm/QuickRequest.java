package org.banyan.runtime.dvm;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a quick client asks of a DVM: the {@code banyan} script, talking to the DVM's quick door
 * with shell builtins instead of starting a JVM ({@link QuickDoor}).
 *
 * <p>Wire format, client to DVM: fields in this order, each ended by a NUL byte, UTF-8:
 * <pre>
 *   MAGIC            "BNYQUICK1"
 *   secret           the DVM's secret, as its secret file holds it
 *   pid              the client's process id, decimal: the DVM takes its working directory
 *                    from /proc/PID/cwd (as the JVM's getcwd does)
 *   in, out, err     three descriptors of the client, decimal, that hold its stdin, stdout and
 *                    stderr (duplicates: a shell writes to a socket by moving it onto its stdout
 *                    for a moment, so descriptor 1 itself may be the connection when looked at);
 *                    the DVM opens them through /proc/PID/fd/N
 *   argc             decimal, then argc fields: the words after "banyan" ("run", ...)
 *   envc             decimal, then envc fields: the client's environment, NAME=VALUE
 * </pre>
 * Then lines. The DVM answers {@code ready} once it has read the request and the secret holds;
 * the client, if it still waits (it waits 2 s at most, then runs its JVM client), answers
 * {@code go}, and only then may anything it asked start, so nothing runs twice. The DVM then
 * says {@code run} (the job is the DVM's now) and later {@code status N}; or {@code fallback WHY}
 * (nothing started: the client runs its JVM client instead); or, when a signal that ends came
 * before the job started, {@code status N} alone. A connection closed without an answer was
 * refused. After {@code go} the client sends {@code signal N} for each signal it traps. Bounds:
 * a field of {@link #FIELD_MAX} bytes, {@link #COUNT_MAX} arguments or variables, {@link
 * #TOTAL_MAX} bytes in all.
 *
 * @param in  the client's descriptor that holds its stdin (so {@code out}, {@code err})
 * @param env the client's environment, in its order
 */
public record QuickRequest(String secret, long pid, int in, int out, int err, List<String> args, Map<String, String> env) {
    public static final String MAGIC = "BNYQUICK1";
    /** The largest descriptor number taken (Linux's default hard limit of open files is 2^20). */
    static final int FD_MAX = 1 << 20;
    /** The largest field: a command line's word or a variable (Linux's own limit is 128 KiB). */
    static final int FIELD_MAX = 1 << 20;
    /** The most arguments, and the most variables. */
    static final int COUNT_MAX = 1 << 16;
    /** The largest request (Linux's ARG_MAX for argv and environ together is 2 MiB by default). */
    static final int TOTAL_MAX = 8 << 20;

    /** Why a request was not one, said to nobody but the DVM's log. */
    public static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }

    /** Reads one request; a stream that ends early or breaks a bound is {@link Malformed}. */
    public static QuickRequest read(InputStream in) throws IOException {
        Reader r = new Reader(in);
        if (!r.field(MAGIC.length()).equals(MAGIC)) {
            throw new Malformed("not a quick client's greeting");
        }
        String secret = r.field();
        long pid = r.number("pid", Integer.MAX_VALUE);
        if (pid < 1) {
            throw new Malformed("pid " + pid + " is not a process's");
        }
        int stdin = (int) r.number("in", FD_MAX);
        int stdout = (int) r.number("out", FD_MAX);
        int stderr = (int) r.number("err", FD_MAX);
        int argc = (int) r.number("argc", COUNT_MAX);
        List<String> args = new ArrayList<>(argc);
        for (int i = 0; i < argc; i++) {
            args.add(r.field());
        }
        int envc = (int) r.number("envc", COUNT_MAX);
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < envc; i++) {
            String pair = r.field();
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new Malformed("environment entry " + i + " is not NAME=VALUE");
            }
            env.putIfAbsent(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return new QuickRequest(secret, pid, stdin, stdout, stderr, List.copyOf(args), env);
    }

    /** The request as a client writes it (for tests and the Java side of the wire's tests). */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<String> fields = new ArrayList<>(List.of(MAGIC, secret, Long.toString(pid), Integer.toString(in),
                Integer.toString(out), Integer.toString(err), Integer.toString(args.size())));
        fields.addAll(args);
        fields.add(Integer.toString(env.size()));
        env.forEach((k, v) -> fields.add(k + "=" + v));
        for (String f : fields) {
            bytes.writeBytes(f.getBytes(StandardCharsets.UTF_8));
            bytes.write(0);
        }
        return bytes.toByteArray();
    }

    @Override
    public String toString() { // never the secret, nor the environment (it may hold the user's tokens)
        return "QuickRequest[pid=" + pid + ", args=" + args + ", " + env.size() + " variables]";
    }

    private static final class Reader {
        private final InputStream in;
        private long total;
        private final ByteArrayOutputStream field = new ByteArrayOutputStream();

        Reader(InputStream in) {
            this.in = in;
        }

        String field() throws IOException {
            return field(FIELD_MAX);
        }

        /** A field of {@code max} bytes at most: past that it is not the field expected. */
        String field(int max) throws IOException {
            field.reset();
            while (true) {
                int b = in.read();
                if (b < 0) {
                    throw new EOFException("the request ended early");
                }
                if (++total > TOTAL_MAX) {
                    throw new Malformed("the request is over " + (TOTAL_MAX >> 20) + " MiB");
                }
                if (b == 0) {
                    return field.toString(StandardCharsets.UTF_8);
                }
                if (field.size() == max) {
                    throw new Malformed(max == FIELD_MAX ? "a field is over " + (FIELD_MAX >> 20) + " MiB"
                            : "not a quick client's greeting");
                }
                field.write(b);
            }
        }

        long number(String what, long max) throws IOException {
            String text = field();
            if (text.isEmpty() || text.length() > 10 || !text.chars().allMatch(Character::isDigit)) {
                throw new Malformed(what + " is not a number");
            }
            long n = Long.parseLong(text);
            if (n > max) {
                throw new Malformed(what + " " + n + " is over " + max);
            }
            return n;
        }
    }
}
