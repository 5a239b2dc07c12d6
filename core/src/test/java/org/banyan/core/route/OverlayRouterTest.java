package org.banyan.core.route;

import org.banyan.core.tree.TopologySpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

class OverlayRouterTest {
    record Sent(int vertex, OverlayMessage.Routed message) {}

    final Set<Integer> open = new HashSet<>();
    final List<Sent> sent = new ArrayList<>();

    OverlayRouter at(String spec, int size, int self) {
        return new OverlayRouter(TopologySpec.parse(spec).over(size), self, new OverlayRouter.Links() {
            @Override
            public boolean isOpen(int vertex) {
                return open.contains(vertex);
            }

            @Override
            public void send(int vertex, OverlayMessage.Routed message) {
                sent.add(new Sent(vertex, message));
            }
        });
    }

    static OverlayMessage.KvsFetch to(int daemon, int request) {
        return new OverlayMessage.KvsFetch(1, 99, daemon, request, "k");
    }

    @Test
    void downToTheChildWhoseSubtreeHoldsTheDestinationElseUp() {
        // radix:2 over 15 vertices: vertex 1 has children 3 and 4; 3 has 7 and 8.
        OverlayRouter r = at("radix:2", 15, 1);
        open.addAll(List.of(0, 3, 4));
        assertThat(r.route(to(6, 1))).isFalse(); // daemon 6 is vertex 7, below 3
        assertThat(r.route(to(3, 2))).isFalse(); // vertex 4, a child
        assertThat(r.route(to(1, 3))).isFalse(); // vertex 2, beside 1: up
        assertThat(r.route(to(0, 4))).isTrue(); // vertex 1 itself
        assertThat(sent).containsExactly(new Sent(3, to(6, 1)), new Sent(4, to(3, 2)), new Sent(0, to(1, 3)));
    }

    @Test
    void whatCannotLeaveYetWaitsInOrderAndLeavesWhenTheLinkOpens() {
        OverlayRouter r = at("binomial", 16, 0);
        r.route(to(3, 1)); // vertex 4, a child of the root
        r.route(to(11, 2)); // vertex 12, below 4
        r.route(to(0, 3)); // vertex 1
        assertThat(sent).isEmpty();
        assertThat(r.heldCount()).isEqualTo(3);
        open.add(4);
        r.opened(4);
        assertThat(sent).containsExactly(new Sent(4, to(3, 1)), new Sent(4, to(11, 2)));
        r.closed(1);
        assertThat(r.heldCount()).isZero();
        r.route(to(0, 4));
        assertThat(sent).hasSize(2);
    }

    @Test
    void everyDestinationIsReachedFromEverySourceAlongTopologyEdges() {
        for (String spec : List.of("radix:1", "radix:2", "radix:5", "binomial", "direct")) {
            int size = 40;
            Topology t = TopologySpec.parse(spec).over(size);
            for (int v = 0; v < size; v++) {
                open.add(v);
            }
            for (int src = 1; src < size; src++) {
                for (int dst = 1; dst < size; dst++) {
                    int at = src;
                    int hops = 0;
                    OverlayMessage.Routed m = to(Topology.daemonOfVertex(dst), 0);
                    while (true) {
                        sent.clear();
                        if (at(spec, size, at).route(m)) {
                            break;
                        }
                        assertThat(sent).hasSize(1);
                        int next = sent.getFirst().vertex();
                        assertThat(t.parent(next) == at || t.parent(at) == next).as(spec + ": a topology edge").isTrue();
                        at = next;
                        assertThat(++hops).isLessThanOrEqualTo(2 * size);
                    }
                    assertThat(at).isEqualTo(dst);
                }
            }
        }
    }
}
