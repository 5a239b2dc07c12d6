package org.banyan.runtime.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Proof, at the start of every overlay link over TCP, that both ends belong to the same job (or
 * DVM): they know its secret, which the head makes and hands to each daemon on the standard input
 * of the command that starts it (never in an argument or a variable, which {@code ps} and
 * {@code /proc} show), and which never crosses a link. Written down once:
 *
 * <pre>
 * acceptor  -> connector : "BNY1" nonceA[16]
 * connector -> acceptor  : nonceC[16] mac("child", nonceA, nonceC)[32]
 * acceptor  -> connector : mac("parent", nonceC, nonceA)[32]
 * mac(label, x, y) = HMAC-SHA-256(secret, label || x || y)
 * </pre>
 *
 * Each side checks the other's MAC in constant time; a connector that fails is closed (and said
 * by the acceptor), an acceptor that fails is not trusted with the job. The exchange takes at
 * most {@link #HANDSHAKE_MILLIS}. Nothing is encrypted: see docs/run.md's threat model.
 */
public final class LinkAuth {
    static final byte[] MAGIC = "BNY1".getBytes(StandardCharsets.US_ASCII);
    static final int NONCE = 16;
    static final int MAC = 32;
    /** How long a link may take to prove itself. */
    public static final int HANDSHAKE_MILLIS = 10_000;
    private static final int SECRET = 32;
    private static final byte[] CHILD = "child".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PARENT = "parent".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private static byte[] secret;

    private LinkAuth() {}

    /** The job's secret: the one installed, or a new one made here (a head's). */
    public static synchronized byte[] secret() {
        if (secret == null) {
            secret = new byte[SECRET];
            RANDOM.nextBytes(secret);
        }
        return secret.clone();
    }

    /** Installs the secret a daemon was handed. */
    public static synchronized void install(byte[] given) {
        secret = given.clone();
    }

    /** The secret as the line a starter writes on a daemon's standard input. */
    public static String secretLine() {
        return HexFormat.of().formatHex(secret()) + "\n";
    }

    /**
     * Reads the line {@link #secretLine} wrote from {@code in} (a daemon's standard input) and
     * installs it.
     *
     * @throws IOException when there is none: the launch agent did not pass standard input on
     */
    public static void installFrom(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n' && line.length() <= 2 * SECRET) {
            line.append((char) b);
        }
        try {
            byte[] s = HexFormat.of().parseHex(line.toString().strip());
            if (s.length != SECRET) {
                throw new IllegalArgumentException("length");
            }
            install(s);
        } catch (IllegalArgumentException e) {
            throw new IOException("no job secret on standard input (a launch agent must pass standard input to the "
                    + "daemon's command, as ssh and srun do; ssh -n does not)");
        }
    }

    /**
     * Job {@code jobId}'s secret for its ranks, in hex: HMAC(secret, "job" || jobId). Each job of a
     * DVM has its own; none reveals the overlay's.
     */
    public static String jobSecret(int jobId) {
        byte[] id = java.nio.ByteBuffer.allocate(4).putInt(jobId).array();
        return HexFormat.of().formatHex(mac("job".getBytes(StandardCharsets.US_ASCII), id, new byte[0]));
    }

    /**
     * The secret of a resized job's world (queue id {@code queueId}, generation {@code generation})
     * for its ranks, in hex: HMAC(secret, "world" || queueId || generation). Its ranks belong to
     * several DVM jobs, each with its own {@link #jobSecret}; none of these reveals another.
     */
    public static String worldSecret(int queueId, int generation) {
        byte[] ids = java.nio.ByteBuffer.allocate(8).putInt(queueId).putInt(generation).array();
        return HexFormat.of().formatHex(mac("world".getBytes(StandardCharsets.US_ASCII), ids, new byte[0]));
    }

    /** The acceptor's side; throws when the connector does not prove the secret. */
    public static void challenge(Socket s) throws IOException {
        int timeout = s.getSoTimeout();
        s.setSoTimeout(HANDSHAKE_MILLIS);
        byte[] nonceA = nonce();
        OutputStream out = s.getOutputStream();
        DataInputStream in = new DataInputStream(s.getInputStream());
        out.write(concat(MAGIC, nonceA));
        out.flush();
        byte[] nonceC = new byte[NONCE];
        byte[] proof = new byte[MAC];
        in.readFully(nonceC);
        in.readFully(proof);
        if (!MessageDigest.isEqual(proof, mac(CHILD, nonceA, nonceC))) {
            throw new IOException("it did not prove the job's secret");
        }
        out.write(mac(PARENT, nonceC, nonceA));
        out.flush();
        s.setSoTimeout(timeout);
    }

    /** The connector's side; throws when the acceptor does not prove the secret. */
    public static void prove(Socket s) throws IOException {
        int timeout = s.getSoTimeout();
        s.setSoTimeout(HANDSHAKE_MILLIS);
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] magic = new byte[MAGIC.length];
        in.readFully(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IOException("it is not a banyan link of this version");
        }
        byte[] nonceA = new byte[NONCE];
        in.readFully(nonceA);
        byte[] nonceC = nonce();
        OutputStream out = s.getOutputStream();
        out.write(concat(nonceC, mac(CHILD, nonceA, nonceC)));
        out.flush();
        byte[] proof = new byte[MAC];
        in.readFully(proof);
        if (!MessageDigest.isEqual(proof, mac(PARENT, nonceC, nonceA))) {
            throw new IOException("it did not prove the job's secret");
        }
        s.setSoTimeout(timeout);
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        return n;
    }

    /** HMAC-SHA-256 of label || x || y, keyed by the job's secret. */
    static byte[] mac(byte[] label, byte[] x, byte[] y) {
        return Hmac.sha256(secret(), label, x, y);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
