package org.banyan.comm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.client.Banyan;

/** How a rank of a malleable job joins a world of a given generation, for {@link Dmr}. */
final class WorldJoin {
    private WorldJoin() {}

    /**
     * Builds the world of {@code gen}: this rank's endpoints go to the DVM's head with its join, and
     * every rank's come back once all have joined (each exchange a join), with the world's secret
     * that its TCP connections prove.
     */
    static Comm join(Banyan job, Map<String, String> env, int gen, int rank, int size) {
        Map<String, String> card = new LinkedHashMap<>();
        card.put("dmr.host", Integer.toString(job.peer(job.rank()).node()));
        int[] seq = {0};
        List<Map<String, String>> cards = new ArrayList<>();
        byte[][] secret = {null};
        Endpoints endpoints = new Endpoints() {
            @Override
            public void publish(String key, String value) {
                if (value.indexOf('\n') >= 0 || value.indexOf('\f') >= 0 || key.indexOf('=') >= 0) {
                    throw new IllegalArgumentException("an endpoint that does not fit a card: " + key);
                }
                card.put(key, value);
            }

            @Override
            public void exchange() {
                StringBuilder text = new StringBuilder();
                card.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
                Banyan.JoinedWorld joined = job.joinWorld(gen, ++seq[0], rank, size, text.toString());
                List<String> all = joined.cards();
                secret[0] = joined.secret();
                cards.clear();
                for (String c : all) {
                    Map<String, String> m = new LinkedHashMap<>();
                    for (String line : c.split("\n")) {
                        int eq = line.indexOf('=');
                        if (eq > 0) {
                            m.put(line.substring(0, eq), line.substring(eq + 1));
                        }
                    }
                    cards.add(m);
                }
            }

            @Override
            public String lookup(int r, String key) {
                return cards.get(r).get(key);
            }

            @Override
            public String host(int r) {
                return cards.get(r).get("dmr.host");
            }

            /** The world's, from the DVM with the first join: its ranks belong to several DVM jobs, each with a secret of its own. */
            @Override
            public byte[] secret() {
                return secret[0];
            }
        };
        endpoints.exchange(); // the hosts first: the shared-memory transport groups ranks by host as it is built
        Comm world = World.create(rank, size, endpoints, env);
        world.engine.job = job; // a resized world spawns through this rank's job
        return world;
    }

}
