package org.banyan.runtime.os;

import org.banyan.pmix.CCall;

/** libc's error strings, for the process-creation classes (their calls go through {@link CCall}). */
final class Libc {
    private Libc() {}

    static String strerror(int err) {
        try {
            return CCall.seg(CCall.call(CCall.libc("strerror"), err)).reinterpret(256).getString(0);
        } catch (RuntimeException e) {
            return "error " + err;
        }
    }
}
