package org.banyan.core.pmi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PMI-2 wire format, as MPICH's simple PMI-2 client and Slurm's libpmi2 speak it once a
 * connection has negotiated version 2 (with the PMI-1 line {@code cmd=init pmi_version=2
 * pmi_subversion=0}):
 *
 * <pre>
 * frame  := length body           length: 6 ASCII characters, the decimal byte count of body,
 *                                 padded with spaces (clients write it left- or right-aligned)
 * body   := "cmd=" NAME ";" (key "=" value ";")*
 * value  := any bytes; a ';' inside a value is written ";;"
 * </pre>
 *
 * No newline ends a frame. Text is handled one byte per char (ISO-8859-1). Replies carry {@code rc=0} on success, or {@code rc=N;errmsg=...}.
 */
public final class PmiV2Codec {
    /** Width of the length field. */
    public static final int HEADER = 6;
    /** Largest body a frame may carry (64 KiB, as MPICH's client allows). */
    public static final int MAX_BODY = 64 * 1024;

    private PmiV2Codec() {}

    /**
     * Reads the length field.
     *
     * @return the body length, or -1 when the field is not a number in range
     */
    public static int bodyLength(CharSequence header) {
        String s = header.toString().strip();
        if (s.isEmpty() || s.length() > HEADER) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return -1;
            }
        }
        int n = Integer.parseInt(s);
        return n <= MAX_BODY ? n : -1;
    }

    /**
     * Parses a frame's body.
     *
     * @return the command, or {@code null} when the body does not start with {@code cmd=}
     */
    public static PmiCommand parse(String body) {
        if (!body.startsWith("cmd=")) {
            return null;
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        String name = null;
        int i = 0;
        int n = body.length();
        while (i < n) {
            int eq = body.indexOf('=', i);
            if (eq < 0) {
                break;
            }
            String key = body.substring(i, eq);
            StringBuilder value = new StringBuilder();
            int j = eq + 1;
            while (j < n) {
                char c = body.charAt(j);
                if (c == ';') {
                    if (j + 1 < n && body.charAt(j + 1) == ';') {
                        value.append(';');
                        j += 2;
                        continue;
                    }
                    break;
                }
                value.append(c);
                j++;
            }
            if (name == null && key.equals("cmd")) {
                name = value.toString();
            } else {
                attrs.put(key, value.toString());
            }
            i = j + 1;
        }
        return name == null || name.isEmpty() ? null : new PmiCommand(name, attrs);
    }

    /** Formats a whole frame: {@code cmd=NAME;k1=v1;...;} behind its length field, right-aligned. */
    public static String frame(String name, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must pair up");
        }
        StringBuilder body = new StringBuilder(32 + keyValues.length * 16).append("cmd=").append(name).append(';');
        for (int i = 0; i < keyValues.length; i += 2) {
            body.append(keyValues[i]).append('=').append(keyValues[i + 1].replace(";", ";;")).append(';');
        }
        // One char per byte: the daemon reads and writes PMI text as ISO-8859-1, so any bytes a
        // client sends come back unchanged and the length counts bytes.
        return String.format("%6d", body.length()) + body;
    }
}
