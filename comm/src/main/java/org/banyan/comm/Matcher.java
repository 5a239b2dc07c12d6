package org.banyan.comm;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * MPI matching, sans-I/O: receives posted before their message wait in {@link #posted}, messages
 * that arrive before their receive wait in {@link #unexpected}, each searched in order so that
 * receives are matched in the order posted and one sender's messages in the order sent. A
 * message is matched when its envelope arrives, before its bytes, so a large one streams straight
 * into the receive's buffer.
 */
final class Matcher {
    private final List<Operation.Receive> posted = new ArrayList<>();
    private final List<Arrival> unexpected = new ArrayList<>();
    /** Contexts whose messages are not received but handled on arrival (one-sided windows). */
    private final java.util.Map<Integer, Handler> handlers = new java.util.HashMap<>();

    /** Takes a whole message of a handled context, with the engine's lock held; may send. */
    interface Handler {
        void arrived(Envelope e, java.lang.foreign.MemorySegment bytes);
    }

    /** Whether any receive is posted and not yet matched. */
    boolean hasPosted() {
        return !posted.isEmpty();
    }

    /**
     * Set while a probe looks for messages: transports then take every message they hold, since
     * a probe sees only what arrived (and posts no receive that would draw it in).
     */
    private boolean drainingAll;

    boolean drainingAll() {
        return drainingAll;
    }

    void drainAll(boolean on) {
        drainingAll = on;
    }

    void handle(int context, Handler h) {
        handlers.put(context, h);
    }

    void unhandle(int context) {
        handlers.remove(context);
    }

    boolean isHandled(int context) {
        return handlers.containsKey(context);
    }

    /** What takes an announced message ({@link Rendezvous}) when a receive posted later matches it. */
    private java.util.function.BiConsumer<Operation.Receive, Arrival> rendezvousMatched;

    void onRendezvousMatched(java.util.function.BiConsumer<Operation.Receive, Arrival> matched) {
        rendezvousMatched = matched;
    }

    /**
     * An announced message ({@link Rendezvous}): matched as its envelope would be, but holding no
     * bytes while unexpected; {@code receive} set when a posted receive took it at once.
     */
    Arrival arriveAnnounced(Envelope e, int sender, int id, long address) {
        Arrival a = new Arrival(e, sender, id, address);
        for (Iterator<Operation.Receive> it = posted.iterator(); it.hasNext(); ) {
            Operation.Receive r = it.next();
            if (r.matches(e)) {
                it.remove();
                a.receive = r;
                return a;
            }
        }
        unexpected.add(a);
        return a;
    }

    /** A message's envelope arrived: the receive it matches, or a place to hold it. */
    Arrival arrive(Envelope e) {
        Handler h = handlers.get(e.context());
        if (h != null) {
            Arrival a = new Arrival(e, null);
            a.handler = h;
            return a;
        }
        for (Iterator<Operation.Receive> it = posted.iterator(); it.hasNext(); ) {
            Operation.Receive r = it.next();
            if (r.matches(e)) {
                it.remove();
                return new Arrival(e, r);
            }
        }
        Arrival a = new Arrival(e, null);
        unexpected.add(a);
        return a;
    }

    /** All of a message's bytes are in. */
    void arrived(Arrival a) {
        a.complete = true;
        if (a.handler != null) {
            a.handler.arrived(a.envelope, a.heldBytes());
            return;
        }
        if (a.receive != null) {
            a.receive.complete(a.envelope);
        }
    }

    /** A receive is posted: it takes the first matching message that came before it, or waits. */
    void post(Operation.Receive r) {
        for (Iterator<Arrival> it = unexpected.iterator(); it.hasNext(); ) {
            Arrival a = it.next();
            if (r.matches(a.envelope)) {
                it.remove();
                receiveTaken(a, r);
                return;
            }
        }
        posted.add(r);
    }

    /** The envelope of the first message a receive of (context, source, tag) would get now, or null: MPI_Iprobe. */
    Envelope probe(int context, int source, int tag) {
        int i = first(context, source, tag);
        return i < 0 ? null : unexpected.get(i).envelope;
    }

    /** Takes the first message a receive of (context, source, tag) would get now out of matching, or null: MPI_Improbe. */
    Arrival take(int context, int source, int tag) {
        int i = first(context, source, tag);
        return i < 0 ? null : unexpected.remove(i);
    }

    private int first(int context, int source, int tag) {
        for (int i = 0; i < unexpected.size(); i++) {
            Envelope e = unexpected.get(i).envelope;
            if (e.context() == context && (source == Comm.ANY_SOURCE || source == e.source())
                    && (tag == Comm.ANY_TAG || tag == e.tag())) {
                return i;
            }
        }
        return -1;
    }

    /** A receive takes a message that came before it (by {@link #post}, or for one {@link #take} took). */
    void receiveTaken(Arrival a, Operation.Receive r) {
        if (a.announcedBy >= 0) {
            a.receive = r;
            rendezvousMatched.accept(r, a);
            return;
        }
        a.matchedBy(r);
        if (a.complete) {
            r.complete(a.envelope);
        }
    }

    /** Fails the posted receives that {@code cannotCome} says no message will ever match, each with its reason. */
    void failWaiting(java.util.function.Predicate<Operation.Receive> cannotCome,
                     java.util.function.Function<Operation.Receive, RuntimeException> why) {
        for (Iterator<Operation.Receive> it = posted.iterator(); it.hasNext(); ) {
            Operation.Receive r = it.next();
            if (cannotCome.test(r)) {
                it.remove();
                r.fail(why.apply(r));
            }
        }
    }

    /** Takes a posted receive back (it failed, or was cancelled, before a message came); false when it was not waiting. */
    boolean unpost(Operation.Receive r) {
        return posted.remove(r);
    }

    int postedCount() {
        return posted.size();
    }

    int unexpectedCount() {
        return unexpected.size();
    }
}
