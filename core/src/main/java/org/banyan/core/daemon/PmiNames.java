package org.banyan.core.daemon;

import static org.banyan.core.daemon.PmiServer.JOIN_PAGE;

import java.util.HashMap;
import java.util.Map;
import org.banyan.core.daemon.PmiServer.Waiter;
import org.banyan.core.pmi.PmiV1Codec;
import org.banyan.core.pmi.PmiV2Codec;
import org.banyan.core.wire.OverlayMessage;

/**
 * The requests a {@link PmiServer} passes to the head and answers when the head has: publish,
 * unpublish and lookup of names (PMI-1 and PMI-2), and the resource manager's resize check and
 * join (PMI-2 only), whose answer may come in pages ({@code banyan-join-page}). The frames are
 * the ones {@link PmiServer}'s table lists.
 */
final class PmiNames {
    /** How answers reach the ranks. */
    interface Replies {
        /** An answer to the request being handled (a PMI-1 line, or a PMI-2 frame). */
        void now(int conn, String text);

        /** A deferred PMI-2 answer to {@code w}'s request. */
        void later(Waiter w, String frame);
    }

    private static final String[] V1 = {"publish_result", "unpublish_result", "lookup_result"};
    private static final String[] V2 = {"name-publish-response", "name-unpublish-response", "name-lookup-response",
            "banyan-resize-check-response", "banyan-join-response"};

    private final PmiServer.Daemon daemon;
    private final Replies replies;
    private final Map<Integer, Waiter> requests = new HashMap<>();
    /** A join's answer too long for one PMI-2 frame, by connection, until its last page is read. */
    private final Map<Integer, String> joinPages = new HashMap<>();
    private int nextRequest;

    PmiNames(PmiServer.Daemon daemon, Replies replies) {
        this.daemon = daemon;
        this.replies = replies;
    }

    /** op 0 publish, 1 unpublish, 2 lookup; 3 and 4 the resource manager's check and join (PMI-2 only). */
    void ask(Waiter w, int op, String name, String port) {
        if (name == null || (op == 0 && port == null)) {
            result(w, op, false, "needs_a_name" + (op == 0 ? "_and_a_port" : ""), null);
            return;
        }
        int request = nextRequest++;
        requests.put(request, w);
        daemon.nameRequest(request, op, name, port == null ? "" : port);
    }

    /** The head's answer to a name request: {@code ok}, and the port for a lookup, or why not. */
    void answered(int request, int op, boolean ok, String portOrReason) {
        Waiter w = requests.remove(request);
        if (w != null) {
            result(w, op, ok, ok ? null : portOrReason, ok ? portOrReason : null);
        }
    }

    /** Page {@code page} of the join answer this connection was given in pages. */
    void page(int conn, int page) {
        String cards = joinPages.get(conn);
        int pages = cards == null ? 0 : (cards.length() + JOIN_PAGE - 1) / JOIN_PAGE;
        if (page < 1 || page >= pages) {
            replies.now(conn, PmiV2Codec.frame("banyan-join-page-response", "rc", "1", "errmsg", "no_such_page"));
            return;
        }
        if (page == pages - 1) {
            joinPages.remove(conn);
        }
        replies.now(conn, PmiV2Codec.frame("banyan-join-page-response", "cards",
                cards.substring(page * JOIN_PAGE, Math.min(cards.length(), (page + 1) * JOIN_PAGE)), "rc", "0"));
    }

    /** The connection closed: its unread pages go. */
    void closed(int conn) {
        joinPages.remove(conn);
    }

    private void result(Waiter w, int op, boolean ok, String reason, String port) {
        if (op == OverlayMessage.NameRequest.JOIN && ok && port.length() > JOIN_PAGE) {
            joinPages.put(w.conn(), port);
            int pages = (port.length() + JOIN_PAGE - 1) / JOIN_PAGE;
            replies.later(w, PmiV2Codec.frame(V2[op], "cards", port.substring(0, JOIN_PAGE), "pages", Integer.toString(pages),
                    "rc", "0"));
            return;
        }
        if (op >= OverlayMessage.NameRequest.RESIZE_CHECK) {
            replies.later(w, ok ? PmiV2Codec.frame(V2[op], op == OverlayMessage.NameRequest.RESIZE_CHECK ? "decision" : "cards",
                    port, "rc", "0")
                    : PmiV2Codec.frame(V2[op], "rc", "1", "errmsg", reason));
            return;
        }
        if (w.version() == 1) {
            if (!ok) {
                replies.now(w.conn(), PmiV1Codec.reply(V1[op], "rc", "-1", "info", reason));
            } else if (op == 2) {
                replies.now(w.conn(), PmiV1Codec.reply(V1[op], "rc", "0", "info", "ok", "port", port));
            } else {
                replies.now(w.conn(), PmiV1Codec.reply(V1[op], "rc", "0", "info", "ok"));
            }
        } else if (!ok) {
            replies.later(w, PmiV2Codec.frame(V2[op], "rc", "1", "errmsg", reason));
        } else if (op == 2) {
            // MPICH's client reads "port", Slurm's libpmi2 "value": both are given.
            replies.later(w, PmiV2Codec.frame(V2[op], "port", port, "value", port, "rc", "0"));
        } else {
            replies.later(w, PmiV2Codec.frame(V2[op], "rc", "0"));
        }
    }
}
