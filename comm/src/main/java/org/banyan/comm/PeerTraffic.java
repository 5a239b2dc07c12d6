package org.banyan.comm;

/**
 * Messages to (or from) one peer of one kind: count, bytes, and a size histogram of 66 buckets
 * as Open MPI's monitoring keeps it: bucket 0 for empty messages, bucket k for sizes in
 * [2^(k-1), 2^k).
 */
public final class PeerTraffic {
    public static final int BUCKETS = 66;

    long messages;
    long bytes;
    final long[] histogram = new long[BUCKETS];

    static int bucket(long size) {
        return size == 0 ? 0 : 64 - Long.numberOfLeadingZeros(size);
    }

    void add(long size) {
        messages++;
        bytes += size;
        histogram[bucket(size)]++;
    }

    public long messages() {
        return messages;
    }

    public long bytes() {
        return bytes;
    }

    public long[] histogram() {
        return histogram.clone();
    }

    PeerTraffic copy() {
        PeerTraffic c = new PeerTraffic();
        c.messages = messages;
        c.bytes = bytes;
        System.arraycopy(histogram, 0, c.histogram, 0, BUCKETS);
        return c;
    }
}
