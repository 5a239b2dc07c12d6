package org.banyan.comm;

import java.util.Map;

/**
 * The shared-memory suite with ranks that each have a core of their own ({@code
 * BANYAN_OVERSUBSCRIBED=0}): their rings are the small ones, and they spin longer before they
 * yield. {@link ShmTransportTest} runs it with ranks that share cores (the large rings).
 */
class ShmDedicatedTransportTest extends ShmTransportTest {
    @Override
    Map<String, String> env() {
        return Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1", "BANYAN_OVERSUBSCRIBED", "0");
    }
}
