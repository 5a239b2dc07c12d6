package org.banyan.comm;

import java.util.List;
import org.banyan.client.Banyan;

/**
 * A communicator's dynamic processes (MPI_Comm_spawn, MPI_Comm_spawn_multiple,
 * MPI_Comm_get_parent): the calls of {@link Comm} that start new jobs and reach the job that
 * started this one, as {@link CommSpawn} builds their intercommunicators.
 */
public abstract sealed class CommSpawning extends CommNonBlockingParts permits Comm {
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
     * MPI_Comm_spawn_multiple, and MPI_Comm_spawn with MPI_Info: one new job of every application
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
}
