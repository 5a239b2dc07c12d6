package org.banyan.pilot.function;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;

/**
 * The function pool's wire format, between the caller's {@code FunctionPool} and each worker JVM,
 * over one TCP connection per worker.
 *
 * <pre>
 * pool → worker, once:  writeUTF("banyan-fn 3")  nonceP[16]
 * worker → pool, once:  writeUTF("banyan-fn 3")  nonceW[16]  HMAC-SHA256(secret, "worker" nonceP nonceW)[32]
 *                       writeLong(worker pid)
 * pool → worker, once:  HMAC-SHA256(secret, "pool" nonceW nonceP)[32]
 *                       (neither side sends the secret; a worker reads nothing more from a pool
 *                       that did not prove it, since frames are deserialized)
 * then, both ways, frames: writeInt(length)  length bytes, each frame one Java serialization
 * stream of its own (header included):
 * pool → worker, a batch:   writeInt(n)  n × { writeLong(id)  writeByte(kind)  writeObject(fn)  [writeObject(arg)] }
 *                           kind 0: fn is a SerializableCallable; kind 1: a SerializableFunction, then its arg.
 *                           n = 0: no more work, the worker exits.
 * worker → pool, its results, in the batch's order:
 *                           writeInt(n)  n × { writeLong(id)  writeBoolean(ok)  writeObject(result | RemoteFunctionException) }
 * </pre>
 *
 * Inside a frame, back-references hold: a function mapped over a thousand arguments is written
 * once per batch. A frame is made in memory before anything is written, so a call whose function
 * or argument cannot be serialized fails alone (and a result that cannot, its call alone) instead
 * of leaving half a batch on the connection, which took the worker and every call it held with it.
 */
public final class FunctionWire {
    public static final String GREETING = "banyan-fn 3";
    static final int NONCE = 16;
    /** How long either side waits for the other's part of the hello. */
    public static final int HELLO_MILLIS = 10_000;
    static final int PROOF = 32;
    private static final byte[] WORKER = "worker".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] POOL = "pool".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    public static final byte CALLABLE = 0;
    public static final byte APPLY = 1;
    /** Not on the wire: a call this worker could not read (its class is not on the class path); fn holds why. */
    public static final byte UNREADABLE = 2;

    /** One call: a callable (arg unused), or a function and its argument. */
    public record Call(long id, byte kind, Object fn, Object arg) {}

    /** One result: the function's value, or the RemoteFunctionException it threw. */
    public record Result(long id, boolean ok, Object value) {}

    private FunctionWire() {}

    /** A worker's hello, as the pool read it: its pid and its nonce. */
    public record Hello(long pid, byte[] nonce) {}

    /** The pool's first words to a connection: its greeting and a fresh nonce, which it returns. */
    public static byte[] challenge(DataOutputStream out) throws IOException {
        byte[] nonce = nonce();
        out.writeUTF(GREETING);
        out.write(nonce);
        out.flush();
        return nonce;
    }

    /**
     * The worker's side: reads the pool's challenge, answers it with a proof of the secret and its
     * pid, and returns the proof the pool must send back ({@link #poolProven}).
     *
     * @throws IOException when what answered is no function pool of this version
     */
    public static byte[] hello(DataInputStream in, DataOutputStream out, String secret, long pid) throws IOException {
        String greeting = in.readUTF();
        if (!GREETING.equals(greeting)) {
            throw new IOException("it greeted as something else than a function pool of this version");
        }
        byte[] nonceP = in.readNBytes(NONCE);
        if (nonceP.length != NONCE) {
            throw new java.io.EOFException("the connection ended in its greeting");
        }
        byte[] nonceW = nonce();
        out.writeUTF(GREETING);
        out.write(nonceW);
        out.write(proof(secret, WORKER, nonceP, nonceW));
        out.writeLong(pid);
        out.flush();
        return proof(secret, POOL, nonceW, nonceP);
    }

    /** Whether the pool sent back the proof {@link #hello} returned. */
    public static boolean poolProven(DataInputStream in, byte[] expected) throws IOException {
        return java.security.MessageDigest.isEqual(in.readNBytes(PROOF), expected);
    }

    /** The pool's side: a worker's hello to its {@code challenge}, or null when the greeting or the proof is wrong. */
    public static Hello readHello(DataInputStream in, String secret, byte[] challenge) throws IOException {
        String greeting = in.readUTF();
        byte[] nonceW = in.readNBytes(NONCE);
        byte[] theirs = in.readNBytes(PROOF);
        long pid = in.readLong();
        return GREETING.equals(greeting) && nonceW.length == NONCE
                && java.security.MessageDigest.isEqual(theirs, proof(secret, WORKER, challenge, nonceW)) ? new Hello(pid, nonceW) : null;
    }

    /** The pool's proof to a worker that proved itself. */
    public static void provePool(DataOutputStream out, String secret, Hello hello, byte[] challenge) throws IOException {
        out.write(proof(secret, POOL, hello.nonce(), challenge));
        out.flush();
    }

    private static byte[] proof(String secret, byte[] label, byte[] first, byte[] second) {
        return org.banyan.runtime.net.Hmac.sha256(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8), label, first, second);
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * A batch's frame.
     *
     * @throws IOException (a {@link java.io.NotSerializableException}...) when a function or an argument cannot be serialized
     */
    public static byte[] batch(List<Call> calls) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 32 * calls.size());
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeInt(calls.size());
            for (Call c : calls) {
                out.writeLong(c.id());
                out.writeByte(c.kind());
                out.writeObject(c.fn());
                if (c.kind() == APPLY) {
                    out.writeObject(c.arg());
                }
            }
        }
        return bytes.toByteArray();
    }

    /** Reads one batch; an empty array means the pool is done. A call whose class is missing here comes as {@link #UNREADABLE}. */
    public static Call[] readBatch(DataInputStream in) throws IOException {
        try (ObjectInputStream objects = new ObjectInputStream(new ByteArrayInputStream(readFrame(in)))) {
            int n = objects.readInt();
            Call[] calls = new Call[n];
            for (int i = 0; i < n; i++) {
                long id = objects.readLong();
                byte kind = objects.readByte();
                Object fn = read(objects);
                Object arg = kind == APPLY ? read(objects) : null;
                calls[i] = fn instanceof Missing(ClassNotFoundException e) ? new Call(id, UNREADABLE, e, null)
                        : arg instanceof Missing(ClassNotFoundException e) ? new Call(id, UNREADABLE, e, null)
                        : new Call(id, kind, fn, arg);
            }
            return calls;
        }
    }

    /**
     * A batch's results' frame.
     *
     * @throws IOException when a result cannot be serialized
     */
    public static byte[] results(Result[] results) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 32 * results.length);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeInt(results.length);
            for (Result r : results) {
                out.writeLong(r.id());
                out.writeBoolean(r.ok());
                out.writeObject(r.value());
            }
        }
        return bytes.toByteArray();
    }

    /** Reads one frame of results; a value whose class is missing here is a {@link ClassNotFoundException} in place of it, not ok. */
    public static Result[] readResults(DataInputStream in) throws IOException {
        try (ObjectInputStream objects = new ObjectInputStream(new ByteArrayInputStream(readFrame(in)))) {
            int n = objects.readInt();
            Result[] results = new Result[n];
            for (int i = 0; i < n; i++) {
                long id = objects.readLong();
                boolean ok = objects.readBoolean();
                Object value = read(objects);
                results[i] = value instanceof Missing(ClassNotFoundException e) ? new Result(id, false, e) : new Result(id, ok, value);
            }
            return results;
        }
    }

    public static void writeFrame(DataOutputStream out, byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return frame;
    }

    /** An object whose class could not be loaded; the stream reads on past it. */
    private record Missing(ClassNotFoundException e) {}

    private static Object read(ObjectInputStream in) throws IOException {
        try {
            return in.readObject();
        } catch (ClassNotFoundException e) {
            return new Missing(e);
        }
    }
}
