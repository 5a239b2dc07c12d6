package org.banyan.core.pmi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PMI-1 wire format as MPICH's simple PMI client speaks it: one request per line,
 * {@code cmd=NAME key=value key=value\n}, attributes separated by spaces, values without spaces.
 * The exception is {@code cmd=abort}, whose trailing {@code message=} runs to the end of the line.
 *
 * <p>A multi-line command ({@code mcmd=spawn}) is the other form: one {@code key=value} a line,
 * each value to the end of its line (arguments may hold spaces), closed by a line {@code endcmd}.
 * The transport hands it over whole, its lines joined by {@code \n} (without the {@code endcmd});
 * {@code spawn_multiple} sends one such block per command, numbered by {@code spawnssofar} out of
 * {@code totspawns}, and expects a single reply after the last.
 * Replies use the same form; the server's replies are listed in {@code PmiServer}'s Javadoc.
 */
public final class PmiV1Codec {
    private PmiV1Codec() {}

    /**
     * Parses one line (without its newline).
     *
     * @return the command, or {@code null} when the line has no {@code cmd=} (or {@code mcmd=}) first
     */
    public static PmiCommand parse(String line) {
        if (line.startsWith("mcmd=") && line.indexOf('\n') >= 0) {
            return parseBlock(line);
        }
        String text = line.strip();
        String head;
        if (text.startsWith("cmd=")) {
            head = "cmd";
        } else if (text.startsWith("mcmd=")) {
            head = "mcmd";
        } else {
            return null;
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        String name = null;
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && text.charAt(i) == ' ') {
                i++;
            }
            if (i >= text.length()) {
                break;
            }
            int eq = text.indexOf('=', i);
            int space = text.indexOf(' ', i);
            if (eq < 0 || (space >= 0 && space < eq)) {
                // A bare word: keep it as a key with an empty value so nothing is lost silently.
                int end = space < 0 ? text.length() : space;
                attrs.put(text.substring(i, end), "");
                i = end;
                continue;
            }
            String key = text.substring(i, eq);
            int end;
            if (key.equals("message") && "abort".equals(name)) {
                end = text.length();
            } else {
                end = space < 0 ? text.length() : space;
            }
            String value = text.substring(eq + 1, end);
            if (name == null && key.equals(head)) {
                name = value;
            } else {
                attrs.put(key, value);
            }
            i = end;
        }
        if (name == null || name.isEmpty()) {
            return null;
        }
        return new PmiCommand(head.equals("mcmd") ? "mcmd:" + name : name, attrs);
    }

    /** A multi-line command: {@code key=value} a line, values whole. */
    private static PmiCommand parseBlock(String block) {
        Map<String, String> attrs = new LinkedHashMap<>();
        String name = null;
        for (String line : block.split("\n")) {
            int eq = line.indexOf('=');
            if (eq < 0) {
                if (!line.isBlank() && !line.strip().equals("endcmd")) {
                    attrs.put(line.strip(), "");
                }
            } else if (name == null && line.substring(0, eq).equals("mcmd")) {
                name = line.substring(eq + 1).strip();
            } else {
                attrs.put(line.substring(0, eq).strip(), line.substring(eq + 1));
            }
        }
        return name == null || name.isEmpty() ? null : new PmiCommand("mcmd:" + name, attrs);
    }

    /** Formats a reply line with its trailing newline: {@code cmd=NAME k1=v1 k2=v2\n}. */
    public static String reply(String name, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must pair up");
        }
        StringBuilder sb = new StringBuilder(32 + keyValues.length * 16).append("cmd=").append(name);
        for (int i = 0; i < keyValues.length; i += 2) {
            sb.append(' ').append(keyValues[i]).append('=').append(keyValues[i + 1]);
        }
        return sb.append('\n').toString();
    }
}
