package org.banyan.comm;

import java.util.Map;
import java.util.function.IntFunction;

/** The suite with every rank on a host of its own: all messages go over TCP. */
class TcpTransportTest extends TransportSuite {
    @Override
    IntFunction<String> hosts() {
        return r -> "host" + r;
    }

    @Override
    Map<String, String> env() {
        return Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1");
    }

    @Override
    Class<? extends Transport> transport() {
        return TcpTransport.class;
    }
}
