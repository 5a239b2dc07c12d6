package org.banyan.topo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Caches from hwloc's XML, for hosts whose /sys does not list them (a Firecracker VM). */
class HwlocCachesTest {
    static String resource(String name) throws Exception {
        return Files.readString(Path.of(HwlocCachesTest.class.getClassLoader().getResource(name).toURI()));
    }

    @Test
    void eachCacheOnceByLevelWithThePusThatShareItInBothFormats() throws Exception {
        for (String file : List.of("two-sockets-32pu.xml", "two-sockets-32pu-v1.xml")) {
            Map<Integer, List<int[]>> caches = HwlocCaches.of(resource(file));
            assertThat(caches).as(file).containsOnlyKeys(3);
            assertThat(caches.get(3)).as(file).hasSize(2);
            assertThat(caches.get(3).get(0)).as(file).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            assertThat(caches.get(3).get(1)).as(file).startsWith(16).endsWith(31).hasSize(16);
        }
    }

    /** As this VM's lstopo writes it: an L3, L2 and L1d per core, L1i left out (a locality string's L1 is the data cache). */
    @Test
    void instructionCachesAreLeftOut() {
        String xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <topology version="2.0">
                  <object type="Machine" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" allowed_cpuset="0x00000003">
                    <object type="Package" os_index="0" cpuset="0x00000003">
                      <object type="L3Cache" cpuset="0x00000001" cache_size="532676608" depth="3" cache_type="0">
                        <object type="L2Cache" cpuset="0x00000001" depth="2" cache_type="0">
                          <object type="L1Cache" cpuset="0x00000001" depth="1" cache_type="1">
                            <object type="L1iCache" cpuset="0x00000001" depth="1" cache_type="2">
                              <object type="Core" os_index="0" cpuset="0x00000001"><object type="PU" os_index="0" cpuset="0x00000001"/></object>
                            </object>
                          </object>
                        </object>
                      </object>
                      <object type="L3Cache" cpuset="0x00000002" cache_size="532676608" depth="3" cache_type="0">
                        <object type="L2Cache" cpuset="0x00000002" depth="2" cache_type="0">
                          <object type="L1Cache" cpuset="0x00000002" depth="1" cache_type="1">
                            <object type="L1iCache" cpuset="0x00000002" depth="1" cache_type="2">
                              <object type="Core" os_index="1" cpuset="0x00000002"><object type="PU" os_index="1" cpuset="0x00000002"/></object>
                            </object>
                          </object>
                        </object>
                      </object>
                    </object>
                  </object>
                </topology>
                """;
        Map<Integer, List<int[]>> caches = HwlocCaches.of(xml);
        assertThat(caches).containsOnlyKeys(1, 2, 3);
        for (List<int[]> level : caches.values()) {
            assertThat(level).hasSize(2);
            assertThat(level.get(0)).containsExactly(0);
            assertThat(level.get(1)).containsExactly(1);
        }
        assertThat(new CpuBinding(HwlocXml.parse(xml), caches, CpuKinds.NONE).locality(new int[] {1}))
                .as("what mpirun gives a rank bound to the second core").isEqualTo("SK0:L31:L21:L11:CR1:HT1:NM0");
    }
}
