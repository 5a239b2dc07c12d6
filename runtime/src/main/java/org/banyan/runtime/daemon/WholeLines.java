package org.banyan.runtime.daemon;

import java.util.Arrays;

/**
 * Cuts a rank's output stream into chunks that end where a line ends, so that the head can write
 * each chunk whole and lines of different ranks never interleave mid-line, tagged or not. A
 * partial line is held until its newline comes, until it grows past {@link #CAP}, or until the
 * pump decides it has waited long enough (a prompt) or the stream ends.
 */
final class WholeLines {
    /** A line longer than this goes out in pieces. */
    static final int CAP = 1 << 16;

    private byte[] held = new byte[256];
    private int heldLength;

    /**
     * Takes {@code n} bytes of {@code data}; returns what can go now (whatever was held, then
     * everything up to the last newline), or null when everything is held.
     */
    byte[] add(byte[] data, int n) {
        int lastNewline = -1;
        for (int i = n - 1; i >= 0; i--) {
            if (data[i] == '\n') {
                lastNewline = i;
                break;
            }
        }
        if (lastNewline < 0) {
            hold(data, 0, n);
            return heldLength > CAP ? take() : null;
        }
        byte[] out = new byte[heldLength + lastNewline + 1];
        System.arraycopy(held, 0, out, 0, heldLength);
        System.arraycopy(data, 0, out, heldLength, lastNewline + 1);
        heldLength = 0;
        hold(data, lastNewline + 1, n - lastNewline - 1);
        return out;
    }

    boolean holding() {
        return heldLength > 0;
    }

    /** What is held (an unterminated line), which is then forgotten. */
    byte[] take() {
        byte[] out = Arrays.copyOf(held, heldLength);
        heldLength = 0;
        return out;
    }

    private void hold(byte[] data, int from, int length) {
        if (heldLength + length > held.length) {
            held = Arrays.copyOf(held, Math.max(held.length * 2, heldLength + length));
        }
        System.arraycopy(data, from, held, heldLength, length);
        heldLength += length;
    }
}
