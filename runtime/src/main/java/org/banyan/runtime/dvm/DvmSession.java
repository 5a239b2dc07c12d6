package org.banyan.runtime.dvm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.banyan.core.wire.ClientMessage;

/** A client of the DVM that presented the secret: its connection, and the jobs and tasks it owns. */
final class DvmSession {
    final int id;
    final ClientChannel channel;
    final Set<Integer> jobs = new HashSet<>();
    final Set<Integer> tasks = new HashSet<>();
    /** Its tasks outlive it ({@code banyan submit --detach}). */
    boolean detached;
    /** Task state changes not sent yet: they leave together when the head flushes them (every few ms). */
    final List<ClientMessage.TaskUpdate> updates = new ArrayList<>();

    DvmSession(int id, ClientChannel channel) {
        this.id = id;
        this.channel = channel;
    }

    void send(ClientMessage m) {
        try {
            channel.send(m);
        } catch (IOException e) {
            // the session's reader reports it gone
        }
    }

    void flushUpdates() {
        if (!updates.isEmpty()) {
            send(new ClientMessage.TaskUpdates(List.copyOf(updates)));
            updates.clear();
        }
    }
}
