package org.banyan.it;

import java.util.Map;

/**
 * Every {@link ControlTest} case again, with ranks created by ProcessBuilder ({@code
 * BANYAN_SPAWN=jdk}, the fallback where libc lacks what native spawning needs) and read by a
 * thread per stream; {@link ControlTest} itself runs the default, posix_spawn.
 */
class JdkSpawnControlTest extends ControlTest {
    @Override
    Map<String, String> environment() {
        return Map.of("BANYAN_SPAWN", "jdk");
    }
}
