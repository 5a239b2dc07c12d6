package org.banyan.core.daemon;

import static org.banyan.core.daemon.PmiServer.JOIN_PAGE;

import java.util.HashMap;
import java.util.Map;
import org.banyan.core.pmi.PmiCommand;
import org.banyan.core.daemon.PmiServer.Waiter;
import org.banyan.core.pmi.PmiV1Codec;
import org.banyan.core.pmi.PmiV2Codec;
import org.banyan.core.wire.OverlayMessage;

/**
 * The requests a {@link PmiServer} passes to the head and answers when the head has: publish,
 * unpublish and lookup of names (PMI-1 and PMI-2; a PMI-2 lookup may wait for the name), and
 * Banyan's own PMI-2 commands: the resource manager's resize check and join, whose answer may
 * come in pages, and spawn. The standard frames are the ones {@link PmiServer}'s table lists;
 * Banyan's are these (bodies without their length field):
 * <pre>
 * banyan-resize-check;min=;max=;factor=;preferred=
 *                       -> banyan-resize-check-response;decision=D;rc=0 (for the DMR API: D is
 *                          "expand|shrink|none,ranks,generation"; rc=1;errmsg= when the job is not
 *                          in a DVM's queue)
 * banyan-join;generation=;seq=;rank=;size=;card=
 *                       -> banyan-join-response;cards=C;rc=0 once every rank of the new world
 *                          joined (C: every card in rank order, each ending in \f, then
 *                          world-secret=HEX\f: the world's secret, from a DVM's head); when C is
 *                          longer than {@link PmiServer#JOIN_PAGE} characters, its first page and
 *                          pages=P: the client asks for the others with
 * banyan-join-page;page=I
 *                       -> banyan-join-page-response;cards=C_I;rc=0 (I = 1 .. P-1; the daemon
 *                          forgets C after the last; rc=1;errmsg=no_such_page)
 * banyan-spawn;executable=E;count=N;argc=A;arg0=..;envc=V;env0=NAME=VALUE..;wdir=D;hosts=H1,H2
 *                       -> banyan-spawn-response;jobid=J;rc=0 once the head started job J of N
 *                          ranks of E, spawned by this one (MPI_Comm_spawn for banyan-comm: the
 *                          two jobs then meet through the name service); rc=1;errmsg= why not.
 *                          wdir and hosts may be left out; several applications
 *                          (MPI_Comm_spawn_multiple): appc=K and each key above but hosts as
 *                          appI.executable=.., appI.count=.., ... ({@link PmiSpawnRequest})
 * </pre>
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
    /** PMI-2 answers by {@link OverlayMessage.NameRequest} op (6, connect, is PMIx's only). */
    private static final String[] V2 = {"name-publish-response", "name-unpublish-response", "name-lookup-response",
            "banyan-resize-check-response", "banyan-join-response", "name-lookup-response", null, "banyan-spawn-response"};

    private final PmiServer.Daemon daemon;
    private final Replies replies;
    private final Map<Integer, Waiter> requests = new HashMap<>();
    /** A join's answer too long for one PMI-2 frame, by connection, until its last page is read. */
    private final Map<Integer, String> joinPages = new HashMap<>();
    private int nextRequest;
    /** Spawn requests count down from -1, so the daemon tells their answers from a PMIx server's. */
    private int nextSpawn = -1;

    PmiNames(PmiServer.Daemon daemon, Replies replies) {
        this.daemon = daemon;
        this.replies = replies;
    }

    /**
     * op 0 publish, 1 unpublish, 2 lookup, 5 lookup that waits ({@code port}: its seconds); 3 and 4
     * the resource manager's check and join (PMI-2 only).
     */
    void ask(Waiter w, int op, String name, String port) {
        if (name == null || (op == 0 && port == null)) {
            result(w, op, false, "needs_a_name" + (op == 0 ? "_and_a_port" : ""), null);
            return;
        }
        int request = nextRequest++;
        requests.put(request, w);
        daemon.nameRequest(request, op, name, port == null ? "" : port);
    }

    /** A {@code banyan-spawn} request: refused here when malformed, else passed to the head. */
    void spawn(Waiter w, PmiCommand cmd) {
        PmiSpawnRequest ask;
        try {
            ask = PmiSpawnRequest.parse(cmd);
        } catch (IllegalArgumentException e) {
            result(w, OverlayMessage.NameRequest.SPAWN, false, e.getMessage(), null);
            return;
        }
        int request = nextSpawn--;
        requests.put(request, w);
        daemon.spawn(request, ask.apps(), ask.hosts());
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
        if (op == OverlayMessage.NameRequest.SPAWN) {
            // the head's answer is "JOBID NAMESPACE": the rank needs the job
            replies.later(w, ok ? PmiV2Codec.frame(V2[op], "jobid", port.split(" ", 2)[0], "rc", "0")
                    : PmiV2Codec.frame(V2[op], "rc", "1", "errmsg", reason));
            return;
        }
        if (op == OverlayMessage.NameRequest.LOOKUP_WAIT) {
            op = 2; // answered as a lookup
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
