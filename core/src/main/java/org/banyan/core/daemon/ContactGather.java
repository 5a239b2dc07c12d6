package org.banyan.core.daemon;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.banyan.core.wire.OverlayMessage;

/**
 * Phase 2: the contacts of this daemon's subtree go up in one message once every child's have
 * come, with the GPUs of its daemons that have any; the head's {@link OverlayMessage.AllContacts}
 * comes down and is passed on, also to a child that says hello later.
 */
final class ContactGather {
    private final DaemonOutbox out;
    private final Map<Integer, String> gathered = new TreeMap<>();
    private final Map<Integer, String> gpus = new TreeMap<>();
    private final Set<Integer> pending = new HashSet<>();
    private boolean sent;
    private OverlayMessage.AllContacts all;

    ContactGather(DaemonOutbox out) {
        this.out = out;
    }

    /**
     * Adopted: this daemon's own contact and GPUs ({@code CUDA_VISIBLE_DEVICES} form, empty for
     * none), and the children whose contacts it waits for.
     */
    void start(int daemonId, String contact, String ownGpus, List<Integer> children) {
        gathered.put(daemonId, contact);
        if (!ownGpus.isEmpty()) {
            gpus.put(daemonId, ownGpus);
        }
        pending.addAll(children);
    }

    void fromChild(int child, OverlayMessage.Contacts c) {
        gathered.putAll(c.contacts());
        gpus.putAll(c.gpus());
        pending.remove(child);
        maybeSend();
    }

    void maybeSend() {
        if (!sent && pending.isEmpty() && !gathered.isEmpty()) {
            sent = true;
            out.up(new OverlayMessage.Contacts(Map.copyOf(gathered), Map.copyOf(gpus)));
        }
    }

    void all(OverlayMessage.AllContacts contacts) {
        all = contacts;
        out.flood(contacts);
    }

    /** A child adopted after the contacts came down gets them too. */
    void catchUp(int child) {
        if (all != null) {
            out.toChild(child, all);
        }
    }
}
