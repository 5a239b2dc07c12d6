package org.banyan.comm;

import java.util.List;
import org.banyan.client.Banyan;

/**
 * A communicator's dynamic processes: the calls of {@link Comm} that start new jobs and reach
 * the job that started this one (MPI_Comm_spawn, MPI_Comm_spawn_multiple, MPI_Comm_get_parent;
 * {@link CommSpawn}), and that connect groups of jobs that did not start each other
 * (MPI_Open_port, MPI_Comm_accept, MPI_Comm_connect, and the name service; {@link CommPorts}),
 * or two processes that share a socket (MPI_Comm_join; {@link CommJoin}).
 */
public abstract sealed class CommSpawning extends CommNonBlockingParts permits CommEnvironment {
    CommSpawning() {}

    /**
     * MPI_Comm_spawn: starts {@code count} processes of {@code executable} with {@code args} as a
     * new job of this run (placed in its free slots, as mpirun places spawned jobs) and returns an
     * intercommunicator whose remote group is theirs; they reach this group through
     * {@link #parent()}. {@code executable}, {@code args} and {@code count} are read at
     * {@code root} only. Collective over this communicator; when the run refuses (no free slots,
     * no such program) or the children do not connect within {@code BANYAN_COMM_SPAWN_TIMEOUT}
     * seconds (default 120), every rank gets a {@link CommException} saying why.
     */
    public Intercomm spawn(String executable, List<String> args, int count, int root) {
        return spawnMultiple(List.of(new Banyan.SpawnApp(executable, args == null ? List.of() : args, count, java.util.Map.of(),
                null)), List.of(), root);
    }

    /**
     * MPI_Comm_spawn with MPI_Info: as {@link #spawn(String, List, int, int)}, with {@code info}'s
     * keys (all read at {@code root} only): "host" (comma-separated hosts of the run), "wdir"
     * (the children's working directory), "path" (colon-separated directories in which a bare
     * program name is looked up), "soft" (MPI's list of acceptable counts, {@code a},
     * {@code a:b}, {@code a:b:c}, each at most {@code count}: the largest the run can start is
     * started; {@link Intercomm#remoteSize} says which) and Open MPI's "env" (lines of
     * {@code NAME=value} for the children). Any other key is refused on every rank, as is a
     * malformed value.
     */
    public Intercomm spawn(String executable, List<String> args, int count, java.util.Map<String, String> info, int root) {
        Comm self = (Comm) this;
        self.checkRank(root, "root");
        return CommSpawn.spawn(self, executable, args, count, info, root);
    }

    /**
     * MPI_Comm_spawn_multiple: one new job of every application
     * of {@code apps} (the children's world ranks numbered across them, each application's
     * variables and working directory, MPI_Info "wdir", its own), on the run's {@code hosts}
     * named (MPI_Info "host"; none: wherever the run places them; a DVM refuses them). Read at
     * {@code root} only; otherwise as {@link #spawn(String, List, int, int)}.
     */
    public Intercomm spawnMultiple(List<Banyan.SpawnApp> apps, List<String> hosts, int root) {
        Comm self = (Comm) this;
        self.checkRank(root, "root");
        return CommSpawn.spawn(self, apps, hosts, root);
    }

    /**
     * MPI_Comm_get_parent: the intercommunicator to the group that spawned this job (its remote
     * group), or null when no job spawned it. Closing it is MPI_Comm_disconnect.
     */
    public Intercomm parent() {
        return ((Comm) this).engine.parent;
    }

    /** MPI_Open_port: a port other jobs of the run (or DVM) connect to, once {@link #accept} waits on it. */
    public String openPort() {
        return CommPorts.open((Comm) this);
    }

    /** MPI_Close_port: no further accept on it. */
    public void closePort(String port) {
        CommPorts.close((Comm) this, port);
    }

    /**
     * MPI_Comm_accept: waits (while this job runs) for one group to {@link #connect} to
     * {@code port}, opened at {@code root} (read there only), and returns the intercommunicator
     * to it, whose remote group is the connecting group. Collective over this communicator;
     * each accept takes the next connect.
     */
    public Intercomm accept(String port, int root) {
        ((Comm) this).checkRank(root, "root");
        return CommPorts.accept((Comm) this, port, root);
    }

    /**
     * MPI_Comm_connect: joins the group accepting on {@code port} (read at {@code root} only),
     * in any job of the run or DVM. Collective over this communicator; when no accept comes within
     * {@code BANYAN_COMM_CONNECT_TIMEOUT} seconds (default 120), every rank gets a
     * {@link CommException} saying so.
     */
    public Intercomm connect(String port, int root) {
        ((Comm) this).checkRank(root, "root");
        return CommPorts.connect((Comm) this, port, root);
    }

    /**
     * MPI_Comm_join: meets the process at the other end of {@code socket}, which calls join too,
     * and returns the intercommunicator between the two (one process a side: this process's
     * {@link Comm#self} and the other). Not collective: one process on each end calls it. Both
     * must be ranks of the same run or DVM (the joint world is built through its name service;
     * only a short greeting crosses the socket, which is left open). The greeting is awaited
     * {@code BANYAN_COMM_CONNECT_TIMEOUT} seconds (default 120); a socket whose other end writes
     * something else, closes, or cannot join fails it with a {@link CommException} saying so.
     */
    public Intercomm join(java.net.Socket socket) {
        return CommJoin.join((Comm) this, socket);
    }

    /** {@link #join(java.net.Socket)} over a connected channel in blocking mode. */
    public Intercomm join(java.nio.channels.SocketChannel channel) {
        if (channel == null) {
            throw new IllegalArgumentException("join: no channel");
        }
        return CommJoin.join((Comm) this, channel.socket());
    }

    /** MPI_Publish_name: {@code port} under {@code service}, for every job of the run (or DVM); refused when taken. */
    public void publishName(String service, String port) {
        CommPorts.publish((Comm) this, service, port);
    }

    /** MPI_Unpublish_name. */
    public void unpublishName(String service) {
        CommPorts.unpublish((Comm) this, service);
    }

    /** MPI_Lookup_name: the port published under {@code service}; refused when there is none. */
    public String lookupName(String service) {
        return CommPorts.lookup((Comm) this, service, java.time.Duration.ZERO);
    }

    /** MPI_Lookup_name that waits up to {@code wait} for the name to be published. */
    public String lookupName(String service, java.time.Duration wait) {
        return CommPorts.lookup((Comm) this, service, wait);
    }
}
