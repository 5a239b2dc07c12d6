package org.banyan.place;

import org.banyan.topo.Topology;

/**
 * What a placement costs, TreeMatch's three measures over every pair (i &lt; j) that
 * communicates, with w(i,j) the traffic both ways:
 *
 * @param sumCom  SUM_COM, Σ w(i,j) · cost of the level where i's and j's leaves meet
 * @param maxCom  MAX_COM, the largest such term
 * @param hopBytes HOP_BYTE, Σ w(i,j) · links crossed between the two leaves
 */
public record PlacementCost(double sumCom, double maxCom, double hopBytes) {
    public static PlacementCost of(CommMatrix m, Topology t, int[] leafOf) {
        if (leafOf.length != m.size()) {
            throw new IllegalArgumentException(leafOf.length + " places for " + m.size() + " processes");
        }
        double sum = 0;
        double max = 0;
        double hops = 0;
        for (int i = 0; i < m.size(); i++) {
            for (int k = 0; k < m.degree(i); k++) {
                int j = m.neighbour(i, k);
                if (j > i) {
                    double w = m.weight(i, k);
                    double c = w * t.cost(leafOf[i], leafOf[j]);
                    sum += c;
                    max = Math.max(max, c);
                    hops += w * t.hops(leafOf[i], leafOf[j]);
                }
            }
        }
        return new PlacementCost(sum, max, hops);
    }
}
