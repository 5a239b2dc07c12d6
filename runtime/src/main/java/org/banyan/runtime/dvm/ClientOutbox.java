package org.banyan.runtime.dvm;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.banyan.core.wire.ClientCodec;
import org.banyan.core.wire.ClientMessage;

/**
 * What a DVM has for one client, written by a virtual thread of the client's own, so that a
 * client that stops reading holds up nobody else: the DVM's loop only queues. It did write on
 * the loop's thread, and one {@code banyan run --dvm ... | less} left unscrolled, or a client
 * suspended with Ctrl-Z, stopped the whole DVM (every job's output, every task's start, every
 * other client's hello) once the socket's buffers were full. Past {@link #BEHIND} bytes unread
 * the DVM is told the client is behind (its core stops the client's jobs, as a full pipe would)
 * and, once it is down to {@link #CAUGHT_UP}, that it has caught up; a client that leaves more
 * than {@link #LIMIT} bytes unread all the same (task states, output already on its way) is
 * given up, so that it cannot fill the DVM's memory.
 */
final class ClientOutbox {
    /** Bytes a client may leave unread, beyond what the socket's buffers hold. */
    static final long LIMIT = 64L << 20;
    /** Unread bytes at which the client is behind, and back down to which it has caught up. */
    static final long BEHIND = 4L << 20;
    static final long CAUGHT_UP = 1L << 20;
    /**
     * Bytes all of a DVM's clients together may leave unread (a quarter of its heap, at least
     * {@link #LIMIT}): a hundred suspended {@code banyan wait}s, each under its own limit, would
     * otherwise hold 6 GB of task states.
     */
    static final long ALL_CLIENTS_LIMIT = Math.max(LIMIT, Runtime.getRuntime().maxMemory() / 4);

    /**
     * Bytes offered to a client behind between two checks of all clients' common limit: the
     * check looks at every client, and a send to a client behind came with one each.
     */
    static final long COMMON_CHECK_STEP = 1L << 20;

    /**
     * Told (on any thread) when the client falls behind and when it has caught up; the two
     * calls may come from two threads in either order: {@link #isBehind} says which holds now.
     */
    interface Backlog {
        void behind(boolean behind);
    }

    private final ClientChannel channel;
    private final LinkedBlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
    /** Bytes queued and not yet flushed to the socket (those being written included). */
    private final AtomicLong unsent = new AtomicLong();
    private final long limit;
    private final Backlog backlog;
    /** Told it is behind and not told it caught up since. */
    private final AtomicBoolean behind = new AtomicBoolean();
    private final Thread writer;
    private boolean givenUp;
    /** The loop's: bytes offered since all clients' common limit was last checked for this one. */
    private long sinceCommonCheck;

    ClientOutbox(ClientChannel channel, int client, Backlog backlog) {
        this(channel, client, LIMIT, backlog);
    }

    ClientOutbox(ClientChannel channel, int client, long limit, Backlog backlog) {
        this.channel = channel;
        this.limit = limit;
        this.backlog = backlog;
        this.writer = Thread.ofVirtual().name("dvm-client-" + client).start(this::write);
    }

    /**
     * Queues {@code m} (the loop's thread); false when the client has {@link #LIMIT} bytes unread
     * already: {@code m} is dropped, and the caller gives the client up ({@link #giveUp}).
     */
    boolean offer(ClientMessage m) {
        if (givenUp) {
            return false;
        }
        byte[] frame = ClientCodec.encode(m);
        if (unsent.get() + frame.length > limit) {
            return false;
        }
        if (unsent.addAndGet(frame.length) > BEHIND && behind.compareAndSet(false, true)) {
            backlog.behind(true);
        }
        frames.add(frame);
        sinceCommonCheck += frame.length;
        return true;
    }

    /**
     * Whether all clients' common limit is to be checked after this one's last offer (the loop's
     * thread): only a client behind can have put them over it, and it is checked once per
     * {@link #COMMON_CHECK_STEP} offered to it, so that they go over by that much at most each.
     */
    boolean commonCheckDue() {
        if (!behind.get() || sinceCommonCheck < COMMON_CHECK_STEP) {
            return false;
        }
        sinceCommonCheck = 0;
        return true;
    }

    /** Whether the client is behind now: told so, and not told it caught up since. */
    boolean isBehind() {
        return behind.get();
    }

    /** Bytes the client has not taken yet (beyond the socket's buffers). */
    long unsent() {
        return unsent.get();
    }

    /**
     * The client to give up when {@code all} together leave more than {@code limit} unread: the
     * one furthest behind; null when they are within it.
     */
    static Integer furthestBehind(java.util.Map<Integer, ClientOutbox> all, long limit) {
        long total = 0;
        Integer furthest = null;
        long most = -1;
        for (java.util.Map.Entry<Integer, ClientOutbox> e : all.entrySet()) {
            long unsent = e.getValue().givenUp ? 0 : e.getValue().unsent();
            total += unsent;
            if (unsent > most) {
                most = unsent;
                furthest = e.getKey();
            }
        }
        return total > limit ? furthest : null;
    }

    /** Closes the connection of a client that stopped reading; true the first time. */
    boolean giveUp() {
        if (givenUp) {
            return false;
        }
        givenUp = true;
        close();
        return true;
    }

    private void write() {
        try {
            while (true) {
                byte[] frame = frames.take();
                long written = 0;
                do { // what came meanwhile goes in the same flush
                    channel.write(frame);
                    written += frame.length;
                } while ((frame = frames.poll()) != null);
                channel.flush();
                // sent once flushed, not once buffered: drain() closes the socket when nothing is unsent
                unsent.addAndGet(-written);
                if (unsent.get() <= CAUGHT_UP && behind.compareAndSet(true, false)) {
                    backlog.behind(false);
                }
            }
        } catch (InterruptedException | IOException e) {
            // closed here, or the client went away: the door's reader reports that
        }
    }

    /** Waits until {@code deadlineNanos} (System.nanoTime) at most for what is queued to be written: a stopping DVM's last words. */
    void drain(long deadlineNanos) {
        while (unsent.get() > 0 && writer.isAlive() && System.nanoTime() < deadlineNanos) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops the writer and closes the connection. */
    void close() {
        channel.close();
        writer.interrupt();
    }
}
