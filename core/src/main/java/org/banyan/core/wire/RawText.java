package org.banyan.core.wire;

import java.nio.charset.StandardCharsets;

/**
 * Strings that stand for the bytes of a Unix program's argument, variable or file name, which
 * need not be UTF-8. Decoding keeps valid UTF-8 as its characters and turns each byte that is
 * not part of a valid sequence into one lone low surrogate, {@code U+DC80}-{@code U+DCFF} (the
 * scheme Python calls "surrogateescape"); encoding turns those back into their bytes. So any
 * byte string survives {@code decode} then {@code encode}, while text stays text for messages,
 * maps and comparisons.
 *
 * <p>Every string on Banyan's wires goes through here (four-byte length, then these bytes), so
 * that a rank's {@code execve} gets the very bytes banyan's own argv and environment held.
 */
public final class RawText {
    private static final char ESCAPE_BASE = 0xDC00;
    private static final char ESCAPE_FIRST = 0xDC80;
    private static final char ESCAPE_LAST = 0xDCFF;

    private RawText() {}

    /** True when {@code c} stands for the byte {@code c - 0xDC00} that was not UTF-8. */
    public static boolean isEscapedByte(char c) {
        return c >= ESCAPE_FIRST && c <= ESCAPE_LAST;
    }

    /** The bytes {@code s} stands for. A lone surrogate that is no escaped byte becomes {@code '?'}. */
    public static byte[] encode(String s) {
        int n = s.length();
        int i = 0;
        while (i < n && s.charAt(i) < 0x80) {
            i++;
        }
        if (i == n) {
            return s.getBytes(StandardCharsets.ISO_8859_1); // all ASCII: the JDK's fast copy
        }
        boolean escapes = false;
        for (int j = i; j < n && !escapes; j++) {
            escapes = isEscapedByte(s.charAt(j));
        }
        if (!escapes) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        byte[] out = new byte[encodedLength(s)];
        int p = 0;
        for (int j = 0; j < n; j++) {
            char c = s.charAt(j);
            if (c < 0x80) {
                out[p++] = (byte) c;
            } else if (c < 0x800) {
                out[p++] = (byte) (0xC0 | c >> 6);
                out[p++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && j + 1 < n && Character.isLowSurrogate(s.charAt(j + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++j));
                out[p++] = (byte) (0xF0 | cp >> 18);
                out[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                out[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[p++] = (byte) (0x80 | cp & 0x3F);
            } else if (isEscapedByte(c)) {
                out[p++] = (byte) (c - ESCAPE_BASE);
            } else if (Character.isSurrogate(c)) {
                out[p++] = '?';
            } else {
                out[p++] = (byte) (0xE0 | c >> 12);
                out[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[p++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return p == out.length ? out : java.util.Arrays.copyOf(out, p);
    }

    /** How many bytes {@link #encode} gives for {@code s}. */
    public static int encodedLength(String s) {
        int n = s.length();
        int len = 0;
        for (int j = 0; j < n; j++) {
            char c = s.charAt(j);
            if (c < 0x80) {
                len += 1;
            } else if (c < 0x800) {
                len += 2;
            } else if (Character.isHighSurrogate(c) && j + 1 < n && Character.isLowSurrogate(s.charAt(j + 1))) {
                len += 4;
                j++;
            } else if (isEscapedByte(c) || Character.isSurrogate(c)) {
                len += 1;
            } else {
                len += 3;
            }
        }
        return len;
    }

    public static String decode(byte[] b) {
        return decode(b, 0, b.length);
    }

    /** The string standing for {@code len} bytes of {@code b} from {@code off}. */
    public static String decode(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end && b[i] >= 0) {
            i++;
        }
        if (i == end) {
            return new String(b, off, len, StandardCharsets.ISO_8859_1);
        }
        StringBuilder sb = new StringBuilder(len);
        sb.append(new String(b, off, i - off, StandardCharsets.ISO_8859_1));
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                sb.append((char) c);
                i++;
                continue;
            }
            int n = sequenceLength(b, i, end);
            if (n == 0) {
                sb.append((char) (ESCAPE_BASE + c));
                i++;
            } else {
                sb.append(new String(b, i, n, StandardCharsets.UTF_8));
                i += n;
            }
        }
        return sb.toString();
    }

    /**
     * The length of the valid UTF-8 sequence at {@code i} (2-4), or 0 when it is not one:
     * overlong forms, surrogates and code points past U+10FFFF are not UTF-8 (RFC 3629).
     */
    private static int sequenceLength(byte[] b, int i, int end) {
        int c = b[i] & 0xFF;
        int n;
        int min;
        int max;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
            min = 0x80;
            max = 0xBF;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            min = c == 0xE0 ? 0xA0 : 0x80;
            max = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            min = c == 0xF0 ? 0x90 : 0x80;
            max = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return 0;
        }
        if (i + n > end) {
            return 0;
        }
        int second = b[i + 1] & 0xFF;
        if (second < min || second > max) {
            return 0;
        }
        for (int k = 2; k < n; k++) {
            int cont = b[i + k] & 0xFF;
            if (cont < 0x80 || cont > 0xBF) {
                return 0;
            }
        }
        return n;
    }
}
