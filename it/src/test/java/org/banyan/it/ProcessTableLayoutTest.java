package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.banyan.client.ProcessTableLayout;
import org.banyan.core.job.ProcessTable;
import org.junit.jupiter.api.Test;

/** The writer's (core) and the reader's (client library) names for the process table's offsets agree, name by name. */
class ProcessTableLayoutTest {
    @Test
    void everyOffsetTheReaderNamesIsTheWritersOfThatName() throws Exception {
        int compared = 0;
        for (Field f : ProcessTableLayout.class.getFields()) {
            Field writers = ProcessTable.class.getField(f.getName());
            assertThat(Modifier.isStatic(writers.getModifiers())).isTrue();
            assertThat(writers.getInt(null)).as(f.getName()).isEqualTo(f.getInt(null));
            compared++;
        }
        assertThat(compared).isEqualTo(13);
    }
}
