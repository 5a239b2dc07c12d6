package org.banyan.rm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostPoolTest {
    @Test
    void startsTakeTheFirstFreeHostsExpansionsFollowTheJobAndShrinksGiveBackTheLast() {
        HostPool p = new HostPool(List.of("n0", "n1", "n2", "n3", "n4", "n5"));
        assertThat(p.start(1, 2)).containsExactly("n0", "n1");
        assertThat(p.start(2, 1)).containsExactly("n2");
        assertThat(p.expand(1, 2)).as("after job 1's last host, then round").containsExactly("n3", "n4");
        assertThat(p.of(1)).containsExactly("n0", "n1", "n3", "n4");
        assertThat(p.shrink(1, 2)).as("the last hosts leave, last first").containsExactly("n4", "n3");
        assertThat(p.free()).isEqualTo(3);
        assertThat(p.expand(2, 3)).containsExactly("n3", "n4", "n5");
        assertThat(p.end(1)).containsExactly("n0", "n1");
        assertThat(p.start(3, 2)).containsExactly("n0", "n1");
        assertThat(p.free()).isZero();
    }

    @Test
    void expansionsWrapRoundToHostsBeforeTheJob() {
        HostPool p = new HostPool(List.of("a", "b", "c", "d"));
        p.start(1, 1);
        p.start(2, 2);
        p.end(1);
        assertThat(p.expand(2, 2)).containsExactly("d", "a");
    }

    @Test
    void whatCannotBeDoneIsOneClearError() {
        HostPool p = new HostPool(List.of("a", "b"));
        p.start(1, 2);
        assertThatThrownBy(() -> p.start(2, 1)).hasMessage("job 2 wants 1 hosts; 0 are free");
        assertThatThrownBy(() -> p.end(2)).as("a refused start holds nothing").hasMessage("job 2 holds no host");
        assertThatThrownBy(() -> p.shrink(1, 2)).hasMessage("job 1 holds 2 hosts; it cannot give back 2");
        assertThatThrownBy(() -> p.end(9)).hasMessage("job 9 holds no host");
    }

    @Test
    void namedHostsCanBeGivenBack() {
        HostPool pool = new HostPool(java.util.List.of("a", "b", "c", "d"));
        pool.start(1, 1);
        pool.start(2, 1);
        pool.expand(1, 2); // c, d
        pool.giveBack(1, java.util.List.of("d", "a"));
        org.assertj.core.api.Assertions.assertThat(pool.of(1)).containsExactly("c");
        org.assertj.core.api.Assertions.assertThat(pool.free()).isEqualTo(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pool.giveBack(1, java.util.List.of("b")))
                .hasMessageContaining("does not hold host b");
    }

    @Test
    void aRetiredHostIsNeverHandedOutAgain() {
        HostPool pool = new HostPool(java.util.List.of("a", "b", "c"));
        pool.start(1, 1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pool.retire("a")).hasMessageContaining("a is not free");
        pool.retire("c");
        org.assertj.core.api.Assertions.assertThat(pool.isFree("c")).isFalse();
        org.assertj.core.api.Assertions.assertThat(pool.free()).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThat(pool.expand(1, 1)).containsExactly("b");
        pool.end(1);
        org.assertj.core.api.Assertions.assertThat(pool.start(2, 2)).containsExactly("a", "b");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pool.restore("a")).hasMessageContaining("a is not retired");
        pool.restore("c");
        org.assertj.core.api.Assertions.assertThat(pool.isFree("c")).isTrue();
        org.assertj.core.api.Assertions.assertThat(pool.expand(2, 1)).containsExactly("c");
    }
}
