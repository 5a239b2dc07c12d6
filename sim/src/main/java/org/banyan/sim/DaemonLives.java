package org.banyan.sim;

import java.util.Arrays;

/**
 * Each simulated daemon's life as the launch simulation tracks it: started (its hello sent),
 * exited or crashed, told its parent is gone, how long it took to come up; and each vertex's
 * open links, with the most it held at once. Vertex 0 is the head, vertex d + 1 daemon d.
 */
final class DaemonLives {
    private final boolean[] started;
    private final boolean[] exited;
    private final boolean[] parentGone;
    /** How long each daemon took from its parent beginning to start it to its hello (-1: never). */
    private final long[] upMicros;
    private final int[] links;
    private final int[] maxLinks;

    DaemonLives(int hosts) {
        started = new boolean[hosts];
        exited = new boolean[hosts];
        parentGone = new boolean[hosts];
        upMicros = new long[hosts];
        Arrays.fill(upMicros, -1);
        links = new int[hosts + 1];
        maxLinks = new int[hosts + 1];
    }

    /** Daemon {@code d} sent its hello, {@code micros} after its parent began to start it. */
    void start(int d, long micros) {
        started[d] = true;
        upMicros[d] = micros;
    }

    /** Whether daemon {@code d} has sent its hello (and may have stopped since). */
    boolean started(int d) {
        return started[d];
    }

    /** Whether daemon {@code d} has said hello and not stopped. */
    boolean up(int d) {
        return started[d] && !exited[d];
    }

    boolean exited(int d) {
        return exited[d];
    }

    void exit(int d) {
        exited[d] = true;
    }

    /** Daemon {@code d} was told its parent is gone: it ends its ranks and must start none. */
    void parentGone(int d) {
        parentGone[d] = true;
    }

    boolean isParentGone(int d) {
        return parentGone[d];
    }

    /** Vertex {@code v} opened ({@code +1}) or lost ({@code -1}) a link. */
    void link(int v, int delta) {
        links[v] += delta;
        maxLinks[v] = Math.max(maxLinks[v], links[v]);
    }

    int maxLinks(int v) {
        return maxLinks[v];
    }

    /** The start-up times of the daemons that came up, in microseconds, sorted. */
    long[] upTimes() {
        return Arrays.stream(upMicros).filter(u -> u >= 0).sorted().toArray();
    }
}
