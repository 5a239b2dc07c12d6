package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SlotRequest's hand-written equals and hashCode behave as a record's: every component counts. */
class SlotRequestTest {
    @Test
    void equalExactlyWhenEveryComponentIs() {
        List<SlotRequest> shapes = List.of(
                new SlotRequest(1, 1, 0, null, false), new SlotRequest(2, 1, 0, null, false),
                new SlotRequest(1, 2, 0, null, false), new SlotRequest(1, 1, 1, null, false),
                new SlotRequest(1, 1, 0, "a", false), new SlotRequest(1, 1, 0, "b", false),
                new SlotRequest(1, 1, 0, null, true), new SlotRequest(2, 3, 1, "a", true));
        for (int i = 0; i < shapes.size(); i++) {
            for (int j = 0; j < shapes.size(); j++) {
                SlotRequest a = shapes.get(i);
                SlotRequest b = shapes.get(j);
                SlotRequest bCopy = new SlotRequest(b.ranks(), b.coresPerRank(), b.gpusPerRank(),
                        b.colocate() == null ? null : new String(b.colocate()), b.exclusive());
                assertThat(a.equals(bCopy)).as(a + " vs " + b).isEqualTo(i == j);
                if (i == j) {
                    assertThat(a.hashCode()).isEqualTo(bCopy.hashCode());
                }
            }
        }
        assertThat(shapes.getFirst().equals(null)).isFalse();
        assertThat(shapes.getFirst().equals("1 core")).isFalse();
    }

    @Test
    void findsItsEntryInAHashMap() {
        Map<SlotRequest, Integer> m = new HashMap<>();
        m.put(SlotRequest.cores(1), 1);
        m.put(new SlotRequest(1, 1, 0, "tag", false), 2);
        assertThat(m.get(new SlotRequest(1, 1, 0, null, false))).isEqualTo(1);
        assertThat(m.get(new SlotRequest(1, 1, 0, "tag", false))).isEqualTo(2);
        assertThat(m.get(SlotRequest.cores(2))).isNull();
    }
}
