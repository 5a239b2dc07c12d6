package org.banyan.comm;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.banyan.client.Banyan;

/**
 * MPI_Comm_join: two processes holding the two ends of a connected socket meet as an
 * intercommunicator of one process a side. The socket only carries the greeting below; the
 * joint world is then built as after an accept and a connect ({@link JointWorld}), through the
 * name service of the run (or DVM) both processes belong to, so its secret never crosses the
 * user's socket. The socket is left open and unread past the greeting, as MPI leaves it.
 *
 * <p>The greeting, which each side writes once and reads once (big-endian):
 * <pre>
 * offset  size  field
 *      0     8  MAGIC, "BNYJOIN1"
 *      8    16  DRAW: random; the side with the greater one (unsigned, byte by byte) comes first
 *               in the joint world and its SERVICE is the one both use
 *     24     1  STATUS: 0 ready, 1 cannot join (TEXT says why)
 *     25     2  LENGTH of TEXT, at most {@link #MAX_TEXT}
 *     27     L  TEXT, UTF-8: a fresh service name of the name service, or the reason
 * </pre>
 */
final class CommJoin {
    static final byte[] MAGIC = "BNYJOIN1".getBytes(StandardCharsets.US_ASCII);
    static final int DRAW_OFFSET = 8;
    static final int DRAW_BYTES = 16;
    static final int STATUS_OFFSET = DRAW_OFFSET + DRAW_BYTES;
    static final int LENGTH_OFFSET = STATUS_OFFSET + 1;
    static final int TEXT_OFFSET = LENGTH_OFFSET + 2;
    static final int MAX_TEXT = 1024;
    static final byte READY = 0;
    static final byte CANNOT = 1;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** What an end that is not a rank of a Banyan job tells the other. */
    static final String NOT_A_RANK = "it is not a rank of a Banyan job";

    /** One side's greeting. */
    record Greeting(byte[] draw, boolean ready, String text) {
        byte[] encode() {
            byte[] t = text.getBytes(StandardCharsets.UTF_8);
            if (t.length > MAX_TEXT) {
                t = Arrays.copyOf(t, MAX_TEXT); // a reason cut short; a service name is far shorter
            }
            ByteBuffer b = ByteBuffer.allocate(TEXT_OFFSET + t.length);
            b.put(MAGIC).put(draw).put(ready ? READY : CANNOT).putShort((short) t.length).put(t);
            return b.array();
        }

        /** Reads the other side's greeting; a stream that does not carry one is said as such. */
        static Greeting read(InputStream in) throws IOException {
            DataInputStream d = new DataInputStream(in);
            byte[] head = new byte[TEXT_OFFSET];
            d.readFully(head);
            ByteBuffer b = ByteBuffer.wrap(head);
            if (!Arrays.equals(head, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
                throw new CommException("join: the other end of the socket is not joining (it wrote "
                        + HexFormat.of().formatHex(head, 0, MAGIC.length) + " where a join's greeting starts)");
            }
            byte[] draw = Arrays.copyOfRange(head, DRAW_OFFSET, STATUS_OFFSET);
            byte status = b.get(STATUS_OFFSET);
            int length = Short.toUnsignedInt(b.getShort(LENGTH_OFFSET));
            if ((status != READY && status != CANNOT) || length > MAX_TEXT) {
                throw new CommException("join: the other end's greeting is garbled (status " + status + ", " + length + " bytes)");
            }
            byte[] text = new byte[length];
            d.readFully(text);
            return new Greeting(draw, status == READY, new String(text, StandardCharsets.UTF_8));
        }
    }

    private CommJoin() {}

    /**
     * Joins the process at the other end of {@code socket}; both must be ranks of one run or DVM.
     * Reads wait {@code BANYAN_COMM_CONNECT_TIMEOUT} seconds at most, as the joint world's steps do.
     */
    static Intercomm join(Comm comm, Socket socket) {
        comm.checkOpen();
        int wait = JointWorld.seconds("join", CommPorts.TIMEOUT_VARIABLE, CommSpawn.DEFAULT_TIMEOUT);
        if (socket == null || !socket.isConnected() || socket.isClosed()) {
            throw new IllegalArgumentException("join: the socket is not connected");
        }
        Banyan job = comm.engine.job;
        byte[] draw = new byte[DRAW_BYTES];
        RANDOM.nextBytes(draw);
        Greeting mine = job == null
                ? new Greeting(draw, false, NOT_A_RANK)
                : new Greeting(draw, true, "banyan-comm-join." + job.jobId() + "." + comm.engine.rank + "."
                        + HexFormat.of().formatHex(RANDOM.generateSeed(12)));
        Greeting theirs = exchange(socket, mine, wait);
        if (!mine.ready()) {
            throw new CommException("join: this process is not a rank of a Banyan job");
        }
        if (!theirs.ready()) {
            throw new CommException("join: the other end cannot join: " + theirs.text());
        }
        int order = Arrays.compareUnsigned(mine.draw(), theirs.draw());
        if (order == 0) { // 2^-128: not worth a second round of the protocol
            throw new CommException("join: both ends drew the same number; call join again");
        }
        boolean first = order > 0;
        return JointWorld.build(comm.self(), 0, job, first ? mine.text() : theirs.text(), first,
                new JointWorld.Side("join", "the other end, which must be a rank of this run or DVM, did not go on", wait));
    }

    /** {@code seconds} as a socket's time limit: a limit of 25 days or more (any int is accepted) is the largest one, not an overflow. */
    static int soTimeoutMillis(int seconds) {
        return (int) Math.min(Integer.MAX_VALUE, seconds * 1000L);
    }

    /** Writes ours, reads theirs within {@code seconds}; the socket's own time limit is put back. */
    private static Greeting exchange(Socket socket, Greeting mine, int seconds) {
        int before = -1;
        try {
            before = socket.getSoTimeout();
            socket.setSoTimeout(soTimeoutMillis(seconds));
            OutputStream out = socket.getOutputStream();
            out.write(mine.encode());
            out.flush();
            return Greeting.read(socket.getInputStream());
        } catch (IllegalBlockingModeException e) {
            throw new IllegalArgumentException("join: the socket's channel is in non-blocking mode; join needs it blocking");
        } catch (SocketTimeoutException e) {
            throw new CommException("join: the other end did not join within " + seconds + " s");
        } catch (EOFException e) {
            throw new CommException("join: the other end closed the socket before joining");
        } catch (IOException e) {
            throw new CommException("join: the socket failed: " + e.getMessage(), e);
        } finally {
            if (before >= 0) {
                try {
                    socket.setSoTimeout(before);
                } catch (IOException e) {
                    // closed meanwhile: the exception above says so
                }
            }
        }
    }
}
