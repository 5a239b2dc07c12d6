package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a rank makes of its local peers' probe words: only one that reads back is read from. */
class PeerMemoryTest {
    /** Endpoints over a map: rank 0's published value is copied to the ranks the test names. */
    private static final class MapEndpoints implements Endpoints {
        final Map<String, String> kv = new HashMap<>();

        @Override
        public void publish(String key, String value) {
            kv.put("0/" + key, value);
        }

        @Override
        public void exchange() {}

        @Override
        public String lookup(int rank, String key) {
            String v = kv.get(rank + "/" + key);
            if (v == null) {
                throw new CommException("rank " + rank + " published no " + key);
            }
            return v;
        }

        @Override
        public String host(int rank) {
            return "one";
        }
    }

    @Test
    void garbageOrAMissingWordOrAWrongValueIsNotReadFromAndBreaksNothing() throws Throwable {
        MapEndpoints ep = new MapEndpoints();
        try (Arena a = Arena.ofShared()) {
            PeerMemory m = PeerMemory.publish(7, ep, a);
            assertThat(m).as("native access is on in the tests").isNotNull();
            String mine = ep.kv.get("0/" + PeerMemory.KEY);
            String[] f = mine.split(":");
            ep.kv.put("1/" + PeerMemory.KEY, mine); // a true word (this process's own)
            ep.kv.put("2/" + PeerMemory.KEY, "not:three:numbers");
            ep.kv.put("3/" + PeerMemory.KEY, "12");
            ep.kv.put("4/" + PeerMemory.KEY, f[0] + ":" + f[1] + ":" + Long.toHexString(~Long.parseUnsignedLong(f[2], 16)));
            ep.kv.put("5/" + PeerMemory.KEY, "-1:10:10");
            // rank 6 published nothing
            m.connect(ep, new int[] {0, 1, 2, 3, 4, 5, 6}, 0);
            assertThat(m.canRead(2)).isFalse();
            assertThat(m.canRead(3)).isFalse();
            assertThat(m.canRead(4)).as("a word that does not hold what was said").isFalse();
            assertThat(m.canRead(5)).isFalse();
            assertThat(m.canRead(6)).isFalse();
            assertThat(m.canRead(1)).as("a true word, where the kernel allows the read")
                    .isEqualTo(ShmTransportTest.kernelLetsThisProcessReadItself());
        }
    }
}
