package org.banyan.comm;

import java.lang.foreign.ValueLayout;

/** Element types of reductions; values travel in the host's byte order (ranks share an architecture). */
public enum Elem {
    BYTE(ValueLayout.JAVA_BYTE),
    INT(ValueLayout.JAVA_INT_UNALIGNED),
    LONG(ValueLayout.JAVA_LONG_UNALIGNED),
    FLOAT(ValueLayout.JAVA_FLOAT_UNALIGNED),
    DOUBLE(ValueLayout.JAVA_DOUBLE_UNALIGNED);

    final ValueLayout layout;

    Elem(ValueLayout layout) {
        this.layout = layout;
    }

    public int bytes() {
        return (int) layout.byteSize();
    }
}
