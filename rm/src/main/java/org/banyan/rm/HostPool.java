package org.banyan.rm;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which hosts the resource manager's counts mean (sans-I/O, for the DVM): a start takes the
 * lowest-numbered free hosts, an expansion adds hosts after the job's own where it can (so a
 * job's hosts stay close in the host list, which is usually how the network is laid out), and
 * a shrink gives back the job's last hosts: those of its highest ranks, which are the ones that
 * leave. Every host is held by at most one job.
 */
public final class HostPool {
    private final List<String> hosts;
    private final BitSet free = new BitSet();
    private final BitSet retired = new BitSet();
    private final Map<Integer, List<Integer>> held = new HashMap<>();

    public HostPool(List<String> hosts) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("a pool of no host");
        }
        this.hosts = List.copyOf(hosts);
        free.set(0, hosts.size());
    }

    public int free() {
        return free.cardinality();
    }

    /** The hosts of a job, in the order its ranks fill them. */
    public List<String> of(int jobId) {
        return held.getOrDefault(jobId, List.of()).stream().map(hosts::get).toList();
    }

    /** A job starts on {@code n} hosts: the lowest-numbered free ones. */
    public List<String> start(int jobId, int n) {
        if (held.containsKey(jobId)) {
            throw new IllegalArgumentException("job " + jobId + " already holds hosts");
        }
        if (n < 1 || n > free()) {
            throw new IllegalArgumentException("job " + jobId + " wants " + n + " hosts; " + free() + " are free");
        }
        held.put(jobId, new ArrayList<>());
        return grow(jobId, n, 0);
    }

    /** A job grows by {@code n} hosts, taken after its last host first, then from the start. */
    public List<String> expand(int jobId, int n) {
        List<Integer> mine = held(jobId);
        return grow(jobId, n, mine.isEmpty() ? 0 : mine.getLast() + 1);
    }

    /** A job shrinks by {@code n} hosts: its last ones, returned in the order they leave. */
    public List<String> shrink(int jobId, int n) {
        List<Integer> mine = held(jobId);
        if (n > mine.size() - 1) {
            throw new IllegalArgumentException("job " + jobId + " holds " + mine.size() + " hosts; it cannot give back " + n);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int h = mine.removeLast();
            free.set(h);
            out.add(hosts.get(h));
        }
        return out;
    }

    /**
     * A job gives back these of its hosts (a driver that knows which hosts its leaving ranks
     * were on, when that differs from {@link #shrink}'s guess).
     */
    public void giveBack(int jobId, List<String> names) {
        List<Integer> mine = held(jobId);
        for (String name : names) {
            int h = -1;
            for (int i : mine) {
                if (hosts.get(i).equals(name)) {
                    h = i;
                    break;
                }
            }
            if (h < 0) {
                throw new IllegalArgumentException("job " + jobId + " does not hold host " + name);
            }
            mine.remove(Integer.valueOf(h));
            free.set(h);
        }
    }

    /** Whether host {@code name} is free (held by no job, not retired). */
    public boolean isFree(String name) {
        int h = hosts.indexOf(name);
        return h >= 0 && free.get(h);
    }

    /** A free host leaves the pool: no job gets it again unless it is {@link #restore}d. */
    public void retire(String name) {
        if (!isFree(name)) {
            throw new IllegalArgumentException("host " + name + " is not free");
        }
        free.clear(hosts.indexOf(name));
        retired.set(hosts.indexOf(name));
    }

    /** A retired host is back (the DVM got it from its batch system again): free for jobs. */
    public void restore(String name) {
        int h = hosts.indexOf(name);
        if (h < 0 || !retired.get(h)) {
            throw new IllegalArgumentException("host " + name + " is not retired");
        }
        retired.clear(h);
        free.set(h);
    }

    /** A job ended: all its hosts are free. */
    public List<String> end(int jobId) {
        List<Integer> mine = held.remove(jobId);
        if (mine == null) {
            throw new IllegalArgumentException("job " + jobId + " holds no host");
        }
        mine.forEach(free::set);
        return mine.stream().map(hosts::get).toList();
    }

    private List<Integer> held(int jobId) {
        List<Integer> mine = held.get(jobId);
        if (mine == null) {
            throw new IllegalArgumentException("job " + jobId + " holds no host");
        }
        return mine;
    }

    private List<String> grow(int jobId, int n, int from) {
        if (n > free()) {
            throw new IllegalArgumentException("job " + jobId + " wants " + n + " hosts; " + free() + " are free");
        }
        List<Integer> mine = held.get(jobId);
        List<String> out = new ArrayList<>();
        for (int h = free.nextSetBit(from); out.size() < n; h = free.nextSetBit(h + 1)) {
            if (h < 0) {
                h = free.nextSetBit(0); // wrap round to the hosts before the job's
            }
            free.clear(h);
            mine.add(h);
            out.add(hosts.get(h));
        }
        return out;
    }
}
