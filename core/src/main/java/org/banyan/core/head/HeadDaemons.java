package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.banyan.core.job.Node;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * The head's daemons as they come up: which said hello and from which host, the contacts they
 * gathered (every daemon's listener, for the routing links), and whether all that were expected
 * are up. The head reaches the connected ones directly; the others it lost, or never heard of.
 */
final class HeadDaemons {
    /** The run's hosts by daemon id, shared with the head (a rejoining daemon's host replaces its slot's). */
    private final List<Node> nodes;
    /** Where daemons reach the head's own listener; null when no routing child of the head needs it. */
    private final String headContact;
    private final Set<Integer> connected = new LinkedHashSet<>();
    private final Map<Integer, String> hostOfDaemon = new HashMap<>();
    private final Map<Integer, String> contacts = new TreeMap<>();
    private boolean allUp;

    HeadDaemons(List<Node> nodes, String headContact) {
        this.nodes = nodes;
        this.headContact = headContact;
    }

    /** Daemon {@code d} said hello from {@code host}; false when it had already. */
    boolean hello(int d, String host) {
        if (!connected.add(d)) {
            return false;
        }
        hostOfDaemon.put(d, host);
        return true;
    }

    /** The daemons that said hello and are not gone, in the order they came (a live view). */
    Set<Integer> connected() {
        return connected;
    }

    void gone(int d) {
        connected.remove(d);
    }

    /** Contacts came; true when they complete the {@code expected} daemons' for the first time. */
    boolean contactsCame(Map<Integer, String> more, int expected) {
        contacts.putAll(more);
        if (!allUp && contacts.size() == expected) {
            allUp = true;
            return true;
        }
        return false;
    }

    /** Whether every daemon expected at the start sent its contact. */
    boolean allUp() {
        return allUp;
    }

    /**
     * Every daemon's contact and the head's: daemons dial their routing parents with it (a
     * rejoined daemon gets it alone).
     */
    OverlayMessage.AllContacts allContacts() {
        Map<Integer, String> all = new TreeMap<>(contacts);
        if (headContact != null) {
            all.put(Topology.daemonOfVertex(0), headContact);
        }
        return new OverlayMessage.AllContacts(Map.copyOf(all));
    }

    /** The hosts of daemons that sent no contact and are not {@code lost}. */
    List<String> missing(boolean[] lost) {
        List<String> missing = new ArrayList<>();
        for (int d = 0; d < lost.length; d++) {
            if (!contacts.containsKey(d) && !lost[d]) {
                missing.add(nodes.get(d).name());
            }
        }
        return missing;
    }

    /** The host daemon {@code d} said it runs on, else the one it was started for. */
    String host(int d) {
        String h = hostOfDaemon.get(d);
        return h != null ? h : nodes.get(d).name();
    }
}
