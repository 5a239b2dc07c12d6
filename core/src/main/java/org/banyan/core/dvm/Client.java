package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.banyan.core.wire.ClientMessage;

/**
 * A client of the DVM that presented the secret, as the DVM core sees it: its number, the jobs
 * and tasks it owns, and what is on its way to it. Its connection is the driver's: what the core
 * sends it becomes a {@link DvmAction.ToClient}.
 */
public final class Client {
    final int id;
    final Set<Integer> jobs = new HashSet<>();
    final Set<Integer> tasks = new HashSet<>();
    /** Its jobs stopped because it stopped reading ({@link DvmEvent.ClientBacklog}): continued when it has caught up. */
    final PausedJobs paused = new PausedJobs();
    /** The log said once that it falls behind. */
    boolean toldBehind;
    /** Its tasks outlive it ({@code banyan submit --detach}). */
    boolean detached;
    /** Task state changes not sent yet: they leave together when the head flushes them (every few ms). */
    final List<ClientMessage.TaskUpdate> updates = new ArrayList<>();
    private final Consumer<DvmAction> out;

    /** @param out where the messages for it go (the core's actions of the current event) */
    Client(int id, Consumer<DvmAction> out) {
        this.id = id;
        this.out = out;
    }

    public int id() {
        return id;
    }

    void send(ClientMessage m) {
        out.accept(new DvmAction.ToClient(id, m));
    }

    void flushUpdates() {
        if (!updates.isEmpty()) {
            send(new ClientMessage.TaskUpdates(List.copyOf(updates)));
            updates.clear();
        }
    }
}
