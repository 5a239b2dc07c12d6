package org.banyan.it;

import java.util.Map;

/** Every {@link ControlTest} case again, with ranks created by posix_spawn and reaped by the one reaper. */
class NativeSpawnControlTest extends ControlTest {
    @Override
    Map<String, String> environment() {
        return Map.of("BANYAN_SPAWN", "native");
    }
}
