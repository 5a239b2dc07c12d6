package org.banyan.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.banyan.core.job.Node;
import org.junit.jupiter.api.Test;

class OpenFileLimitTest {
    @Test
    void aLocalHostWithMoreSlotsThanItsDaemonCanWatchIsNamed() {
        List<Node> hosts = List.of(new Node("localhost", 30_000), new Node("far", 90_000));
        assertThat(OpenFileLimit.warning(hosts, 20_000, n -> n.equals("localhost"))).isEqualTo("localhost has 30000 slots, but a "
                + "process here may hold at most 20000 open files (ulimit -Hn) and a daemon holds one per running task: past about "
                + "19936 tasks at once, tasks fail (raise the limit, or give fewer slots)");
        assertThat(OpenFileLimit.warning(hosts, 1_048_576, n -> true)).as("room enough").isNull();
        assertThat(OpenFileLimit.warning(List.of(new Node("far", 90_000)), 20_000, n -> false))
                .as("another host's limit is not this machine's").isNull();
        assertThat(OpenFileLimit.hard()).as("this machine's, read from /proc").isPositive();
    }
}
