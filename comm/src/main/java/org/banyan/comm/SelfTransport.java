package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/** Messages a rank sends to itself: matched and copied at once. */
final class SelfTransport implements Transport {
    private final int me;
    private final Matcher matcher;

    SelfTransport(int me, Matcher matcher) {
        this.me = me;
        this.matcher = matcher;
    }

    @Override
    public boolean reaches(int peer) {
        return peer == me;
    }

    @Override
    public void send(int peer, Envelope e, MemorySegment payload, Operation.Send op) {
        Arrival a = matcher.arrive(e);
        a.write(payload);
        matcher.arrived(a);
        op.complete();
    }

    @Override
    public boolean poll(Matcher matcher) {
        return false;
    }

    @Override
    public void close() {}
}
