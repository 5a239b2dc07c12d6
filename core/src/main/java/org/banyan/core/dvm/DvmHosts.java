package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.banyan.core.job.Node;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.ClientMessage.HostStatus.State;

/**
 * The DVM's hosts and which of them still serve: a host whose daemon died is lost, one the DVM
 * gave back to its batch system is released. A lost host takes no job or task again; a released
 * one may come back ({@link #rejoined}).
 */
public final class DvmHosts {
    private final List<Node> nodes;
    private final State[] state;

    public DvmHosts(List<Node> nodes) {
        this.nodes = new ArrayList<>(nodes);
        this.state = new State[nodes.size()];
        java.util.Arrays.fill(state, State.UP);
    }

    /** The hosts, as a live view: an elastic DVM's slot may get another host ({@link #rejoined}). */
    public List<Node> live() {
        return java.util.Collections.unmodifiableList(nodes);
    }

    /** The hosts' names, as a live view. */
    public List<String> names() {
        return new java.util.AbstractList<>() {
            @Override
            public String get(int i) {
                return nodes.get(i).name();
            }

            @Override
            public int size() {
                return nodes.size();
            }
        };
    }

    public int size() {
        return nodes.size();
    }

    public Node get(int i) {
        return nodes.get(i);
    }

    public boolean serves(int i) {
        return state[i] == State.UP;
    }

    public void lost(int i) {
        if (state[i] == State.UP) {
            state[i] = State.LOST;
        }
    }

    public void released(int i) {
        state[i] = State.RELEASED;
    }

    /** Slot {@code i} has no host yet: an elastic DVM may grow into it. */
    public void vacant(int i) {
        state[i] = State.VACANT;
    }

    /** Slot {@code i}, given back or vacant, serves again on {@code host} (the batch system granted it). */
    public void rejoined(int i, String host) {
        if (awaitsHost(i)) {
            nodes.set(i, new Node(host, nodes.get(i).slots()));
            state[i] = State.UP;
        }
    }

    /** Whether slot {@code i} was given back or is vacant: a host granted later may fill it. */
    public boolean awaitsHost(int i) {
        return state[i] == State.RELEASED || state[i] == State.VACANT;
    }

    /** Whether slot {@code i} has had no host yet. */
    public boolean isVacant(int i) {
        return state[i] == State.VACANT;
    }

    public int inService() {
        int n = 0;
        for (State s : state) {
            n += s == State.UP ? 1 : 0;
        }
        return n;
    }

    /** Every host's slots, those out of service included. */
    public int totalSlots() {
        return nodes.stream().mapToInt(Node::slots).sum();
    }

    /** The slots of hosts out of service. */
    public int slotsOutOfService() {
        int n = 0;
        for (int i = 0; i < nodes.size(); i++) {
            n += serves(i) ? 0 : nodes.get(i).slots();
        }
        return n;
    }

    /** ", N on lost hosts", ", N on hosts given back", ", N on vacant slots", or nothing: why slots are missing. */
    public String outOfServiceNote() {
        int lost = 0;
        int released = 0;
        int vacant = 0;
        for (int i = 0; i < nodes.size(); i++) {
            lost += state[i] == State.LOST ? nodes.get(i).slots() : 0;
            released += state[i] == State.RELEASED ? nodes.get(i).slots() : 0;
            vacant += state[i] == State.VACANT ? nodes.get(i).slots() : 0;
        }
        return (lost > 0 ? ", " + lost + " on lost hosts" : "") + (released > 0 ? ", " + released + " on hosts given back" : "")
                + (vacant > 0 ? ", " + vacant + " on vacant slots" : "");
    }

    /** The hosts as {@code banyan dvm status} shows them; the functions by host index. */
    List<ClientMessage.HostStatus> status(IntUnaryOperator freeSlotsOn, IntUnaryOperator gpusOn, IntUnaryOperator freeGpusOn) {
        List<ClientMessage.HostStatus> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            int inUse = serves(i) ? nodes.get(i).slots() - freeSlotsOn.applyAsInt(i) : 0;
            int gpus = gpusOn.applyAsInt(i);
            int gpusInUse = serves(i) ? gpus - freeGpusOn.applyAsInt(i) : 0;
            out.add(new ClientMessage.HostStatus(nodes.get(i).name(), nodes.get(i).slots(), inUse, state[i], gpus, gpusInUse));
        }
        return out;
    }
}
