package org.banyan.comm;

import java.util.Map;
import java.util.function.IntFunction;

/** The suite with every rank on one host: all messages go through shared memory. */
class ShmTransportTest extends TransportSuite {
    @Override
    IntFunction<String> hosts() {
        return r -> "one-host";
    }

    @Override
    Map<String, String> env() {
        return Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1");
    }

    @Override
    Class<? extends Transport> transport() {
        return ShmTransport.class;
    }

    /** The ring record's envelope is written and read through one set of named offsets. */
    @org.junit.jupiter.api.Test
    void anEnvelopeReadsBackFromItsNamedOffsets() {
        java.lang.foreign.MemorySegment m = java.lang.foreign.Arena.ofAuto().allocate(64);
        Envelope e = new Envelope(7, 3, 42, 1_000_000);
        e.writeTo(m, 8);
        org.assertj.core.api.Assertions.assertThat(Envelope.readFrom(m, 8)).isEqualTo(e);
        org.assertj.core.api.Assertions.assertThat(m.get(java.lang.foreign.ValueLayout.JAVA_INT, 8 + Envelope.TAG_AT)).isEqualTo(42);
        org.assertj.core.api.Assertions.assertThat(Envelope.LENGTH_AT + 4).isEqualTo(Envelope.BYTES);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.TAIL_AT - ShmTransport.HEAD_AT).as("a cache line apart").isEqualTo(64);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.RECORD_KIND_AT + 4).isEqualTo(ShmTransport.RECORD_HEADER);
    }
}
