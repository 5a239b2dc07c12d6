package org.banyan.comm;

import java.lang.foreign.ValueLayout;

/** Element types of reductions; values travel in the host's byte order (ranks share an architecture). */
public enum Elem {
    BYTE(1, ValueLayout.JAVA_BYTE),
    INT(2, ValueLayout.JAVA_INT_UNALIGNED),
    LONG(3, ValueLayout.JAVA_LONG_UNALIGNED),
    FLOAT(4, ValueLayout.JAVA_FLOAT_UNALIGNED),
    DOUBLE(5, ValueLayout.JAVA_DOUBLE_UNALIGNED);

    /** Its number in messages (a window's accumulate): fixed, whatever the order above. */
    final int code;
    final ValueLayout layout;

    Elem(int code, ValueLayout layout) {
        this.code = code;
        this.layout = layout;
    }

    /** The type of {@code code} (see {@link #code}). */
    static Elem ofCode(int code) {
        for (Elem e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        throw new IllegalArgumentException("no element type has code " + code);
    }

    public int bytes() {
        return (int) layout.byteSize();
    }
}
