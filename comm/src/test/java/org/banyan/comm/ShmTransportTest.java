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
}
