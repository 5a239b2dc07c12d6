package org.banyan.comm;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.client.Banyan;

/**
 * Builds the world communicator of a Banyan job: publishes this rank's endpoints through the
 * key exchange, fences once, and leaves every peer's to be fetched on first contact. Monitoring
 * is switched on from the start when {@code banyan run --monitor} asked for it
 * ({@code BANYAN_MONITOR=all|external}), and the profile is written at close to
 * {@code BANYAN_MONITOR_OUT} (default: the working directory); with an output directory, the
 * counters are also written every second to its {@code live/} ({@link LiveTraffic}).
 */
final class World {
    /**
     * MPI_COMM_SELF's contexts (and the next): the world has 0 and 1, and these are kept from
     * every agreement, so a process makes its self communicator alone, whenever first asked.
     */
    static final int SELF_CONTEXT = 2;

    private World() {}

    /** The job's world; a job that another spawned then meets its parents ({@link Comm#parent}). */
    static Comm create(Banyan job) {
        Map<String, String> env = System.getenv();
        Comm world = create(job.rank(), job.size(), new JobEndpoints(job), env);
        world.engine.job = job;
        String service = env.get(CommSpawn.PARENT_VARIABLE);
        if (service != null && !service.isEmpty()) {
            try {
                Intercomm parent = CommSpawn.toParents(world, job, service);
                world.engine.parent = parent;
                parent.engine().parent = parent; // the joint world's communicators (one merged from it) ask too
            } catch (RuntimeException e) {
                world.close(); // every rank of the world failed alike: none is left holding its transports
                throw e;
            }
        }
        return world;
    }

    static Comm create(int rank, int size, Endpoints endpoints, Map<String, String> env) {
        String mode = env.get("BANYAN_MONITOR");
        Matcher matcher = new Matcher();
        List<Transport> transports = new ArrayList<>();
        transports.add(new SelfTransport(rank, matcher));
        boolean dedicated = "0".equals(env.get("BANYAN_OVERSUBSCRIBED"));
        ShmTransport shm = "0".equals(env.get("BANYAN_COMM_SHM")) ? null
                : new ShmTransport(rank, size, endpoints, "1".equals(env.get("BANYAN_COMM_CMA")), dedicated);
        if (shm != null) {
            transports.add(shm);
        }
        transports.add(new TcpTransport(rank, endpoints, address(env), endpoints.secret()));
        endpoints.exchange();
        if (shm != null) {
            shm.connect(endpoints);
            endpoints.exchange(); // every local peer has mapped my file: it can go
            shm.unlink();
        }
        Engine engine = new Engine(rank, size, matcher, transports, hosts(size, endpoints), dedicated);
        if (shm != null && shm.memory() != null) {
            engine.singleCopy(shm.memory());
        }
        engine.firstCpu = TopologyReorder.firstCpu(env.get("BANYAN_CPUS"));
        engine.topologyFile = env.get("BANYAN_COMM_TOPOLOGY");
        Monitor monitor = engine.monitor;
        if (mode != null && !mode.isEmpty() && !mode.equals("off")) {
            monitor.start(mode.equals("external") ? Monitor.Scope.EXTERNAL : Monitor.Scope.ALL);
        }
        int[] group = new int[size];
        for (int i = 0; i < size; i++) {
            group[i] = i;
        }
        String out = env.get("BANYAN_MONITOR_OUT");
        Comm world = new Comm(engine, "MPI_COMM_WORLD", 0, group, new AtomicInteger(SELF_CONTEXT + 2), engine::close);
        if (monitor.running()) {
            Path dir = Path.of(out == null || out.isEmpty() ? "." : out);
            // the dashboard's live heat map reads these while the job runs (only where an output directory was given)
            LiveTraffic live = out == null || out.isEmpty() ? null : new LiveTraffic(monitor, rank, dir.resolve("live"));
            world.profileWriter = () -> {
                if (live != null) {
                    live.close();
                }
                ProfileFile.write(monitor.snapshot(), rank, dir);
            };
        }
        return world;
    }

    /**
     * The address peers on other hosts reach this rank at: BANYAN_COMM_ADDRESS when given, else
     * the host name's address, else (when that is a loopback one, as Debian's 127.0.1.1) the
     * first non-loopback IPv4 address of an interface that is up.
     */
    private static String address(Map<String, String> env) {
        String given = env.get("BANYAN_COMM_ADDRESS");
        if (given != null && !given.isEmpty()) {
            return given;
        }
        try {
            InetAddress local = InetAddress.getLocalHost();
            if (!local.isLoopbackAddress()) {
                return local.getHostAddress();
            }
        } catch (UnknownHostException e) {
            // look at the interfaces
        }
        try {
            for (NetworkInterface ni : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isUp() && !ni.isLoopback()) {
                    for (InetAddress a : java.util.Collections.list(ni.getInetAddresses())) {
                        if (a instanceof Inet4Address) {
                            return a.getHostAddress();
                        }
                    }
                }
            }
        } catch (SocketException e) {
            // loopback it is
        }
        return "127.0.0.1";
    }

    /** Each world rank's host, numbered in the order hosts first appear (the same on every rank). */
    private static int[] hosts(int size, Endpoints endpoints) {
        Map<String, Integer> seen = new java.util.HashMap<>();
        int[] host = new int[size];
        for (int r = 0; r < size; r++) {
            host[r] = seen.computeIfAbsent(endpoints.host(r), h -> seen.size());
        }
        return host;
    }

    /** Endpoints through Banyan's key exchange; the host of a rank from the node-local process table. */
    private record JobEndpoints(Banyan job) implements Endpoints {
        @Override
        public void publish(String key, String value) {
            job.put(key, value);
        }

        @Override
        public void exchange() {
            job.fence();
        }

        @Override
        public String lookup(int rank, String key) {
            return job.get(rank, key);
        }

        @Override
        public String host(int rank) {
            return Integer.toString(job.peer(rank).node());
        }

        @Override
        public byte[] secret() {
            return job.jobSecret();
        }
    }
}
