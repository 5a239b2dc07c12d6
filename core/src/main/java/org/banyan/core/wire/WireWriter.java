package org.banyan.core.wire;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Growable big-endian writer of the wire formats' primitives (layouts in {@link OverlayCodec}'s Javadoc). */
final class WireWriter {
    private byte[] buf = new byte[256];
    private int pos;

    private void ensure(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }

    WireWriter u8(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
        return this;
    }

    WireWriter u32(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    WireWriter u64(long v) {
        return u32((int) (v >>> 32)).u32((int) v);
    }

    WireWriter bytes(byte[] data) {
        u32(data.length);
        ensure(data.length);
        System.arraycopy(data, 0, buf, pos, data.length);
        pos += data.length;
        return this;
    }

    WireWriter string(String s) {
        if (s == null) {
            return u32(-1);
        }
        return bytes(RawText.encode(s));
    }

    WireWriter list(List<String> items) {
        u32(items.size());
        for (String s : items) {
            string(s);
        }
        return this;
    }

    WireWriter map(Map<String, String> m) {
        u32(m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            string(e.getKey());
            string(e.getValue());
        }
        return this;
    }

    WireWriter ownerMap(Map<String, Integer> m) {
        u32(m.size());
        for (Map.Entry<String, Integer> e : m.entrySet()) {
            string(e.getKey());
            u32(e.getValue());
        }
        return this;
    }

    WireWriter intMap(Map<Integer, String> m) {
        u32(m.size());
        for (Map.Entry<Integer, String> e : m.entrySet()) {
            u32(e.getKey());
            string(e.getValue());
        }
        return this;
    }

    byte[] toArray() {
        return Arrays.copyOf(buf, pos);
    }
}
