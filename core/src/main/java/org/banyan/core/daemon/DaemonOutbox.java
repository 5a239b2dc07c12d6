package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.banyan.core.wire.OverlayMessage;

/**
 * Where a daemon's protocols put the actions of one event, and the tree links they go out on:
 * up to the parent while it is there, down to the children that said hello.
 */
final class DaemonOutbox {
    private final List<DaemonAction> actions = new ArrayList<>();
    private final Set<Integer> connected = new LinkedHashSet<>();
    private boolean parentGone;

    void emit(DaemonAction action) {
        actions.add(action);
    }

    void up(OverlayMessage m) {
        if (!parentGone) {
            emit(new DaemonAction.SendToParent(m));
        }
    }

    void toChild(int child, OverlayMessage m) {
        emit(new DaemonAction.SendToChild(child, m));
    }

    /** To every connected child. */
    void flood(OverlayMessage m) {
        for (int c : connected) {
            toChild(c, m);
        }
    }

    void childConnected(int child) {
        connected.add(child);
    }

    void childGone(int child) {
        connected.remove(child);
    }

    boolean isConnected(int child) {
        return connected.contains(child);
    }

    Set<Integer> connectedChildren() {
        return Collections.unmodifiableSet(connected);
    }

    void parentGone() {
        parentGone = true;
    }

    boolean isParentGone() {
        return parentGone;
    }

    /** The actions of the event, in order, and an empty outbox for the next. */
    List<DaemonAction> drain() {
        List<DaemonAction> out = List.copyOf(actions);
        actions.clear();
        return out;
    }
}
