package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** MPI matching without transports: envelopes and bytes handed in as a transport would. */
class MatcherTest {
    final Matcher m = new Matcher();

    Operation.Receive recv(int source, int tag, int bytes) {
        Operation.Receive r = new Operation.Receive(null, 0, source, tag, MemorySegment.ofArray(new byte[bytes]));
        m.post(r);
        return r;
    }

    void arrive(int source, int tag, byte... data) {
        Arrival a = m.arrive(new Envelope(0, source, tag, data.length));
        a.write(MemorySegment.ofArray(data));
        m.arrived(a);
    }

    @Test
    void receivesPostedFirstAreMatchedInTheOrderPosted() {
        Operation.Receive any = recv(Comm.ANY_SOURCE, Comm.ANY_TAG, 4);
        Operation.Receive fromTwo = recv(2, 5, 4);
        arrive(2, 5, (byte) 1);
        arrive(2, 5, (byte) 2);
        assertThat(any.done).isTrue();
        assertThat(any.buffer.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);
        assertThat(fromTwo.buffer.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 2);
        assertThat(m.postedCount()).isZero();
    }

    @Test
    void unexpectedMessagesWaitAndAreTakenInArrivalOrderPerMatch() {
        arrive(1, 7, (byte) 10);
        arrive(3, 7, (byte) 30);
        arrive(1, 8, (byte) 11);
        assertThat(m.probe(0, 3, Comm.ANY_TAG)).isEqualTo(new Envelope(0, 3, 7, 1));
        Operation.Receive r = recv(1, 8, 1);
        assertThat(r.done).isTrue();
        assertThat(r.status()).isEqualTo(new Status(1, 8, 1));
        Operation.Receive any = recv(Comm.ANY_SOURCE, 7, 1);
        assertThat(any.status().source()).isEqualTo(1);
        assertThat(m.unexpectedCount()).isEqualTo(1);
        assertThat(m.probe(1, Comm.ANY_TAG, 0)).isNull();
    }

    @Test
    void aMessageMatchedWhileStillArrivingEndsInTheReceiveBuffer() {
        Arrival a = m.arrive(new Envelope(0, 4, 0, 4));
        a.write(MemorySegment.ofArray(new byte[] {1, 2}));
        Operation.Receive r = recv(4, 0, 8);
        assertThat(r.done).isFalse();
        a.write(MemorySegment.ofArray(new byte[] {3, 4}));
        m.arrived(a);
        assertThat(r.done).isTrue();
        assertThat(r.buffer.asSlice(0, 4).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).containsExactly(1, 2, 3, 4);
        assertThat(r.status().bytes()).isEqualTo(4);
    }

    @Test
    void aShortBufferGetsTheFirstBytesAndATruncationError() {
        Operation.Receive r = recv(0, 0, 2);
        arrive(0, 0, (byte) 1, (byte) 2, (byte) 3);
        assertThat(r.failure).isInstanceOf(TruncatedException.class);
        assertThat(r.buffer.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).containsExactly(1, 2);
    }

    @Test
    void otherContextsNeverMatch() {
        Operation.Receive r = recv(Comm.ANY_SOURCE, Comm.ANY_TAG, 1);
        Arrival a = m.arrive(new Envelope(1, 0, 0, 0));
        m.arrived(a);
        assertThat(r.done).isFalse();
        assertThat(m.unexpectedCount()).isEqualTo(1);
    }
}
