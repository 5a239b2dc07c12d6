package org.banyan.pilot.function;

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
 * worker → pool, once:  writeUTF("banyan-fn 1")  writeUTF(secret)  writeLong(worker pid)
 * then each side opens one ObjectOutputStream for the rest of the connection.
 * pool → worker, a batch:   writeInt(n)  n × { writeLong(id)  writeByte(kind)  writeObject(fn)  [writeObject(arg)] }
 *                           kind 0: fn is a SerializableCallable; kind 1: a SerializableFunction, then its arg.
 *                           n = 0: no more work, the worker exits.
 * worker → pool, its results, in the batch's order:
 *                           writeInt(n)  n × { writeLong(id)  writeBoolean(ok)  writeObject(result | RemoteFunctionException) }
 * </pre>
 *
 * Both sides {@code reset()} their stream after each batch (so the handle tables do not grow)
 * and rely on back-references inside one: a function mapped over a thousand arguments is written
 * once per batch.
 */
public final class FunctionWire {
    public static final String GREETING = "banyan-fn 1";
    public static final byte CALLABLE = 0;
    public static final byte APPLY = 1;

    /** One call: a callable (arg unused), or a function and its argument. */
    public record Call(long id, byte kind, Object fn, Object arg) {}

    /** One result: the function's value, or the RemoteFunctionException it threw. */
    public record Result(long id, boolean ok, Object value) {}

    private FunctionWire() {}

    public static void hello(DataOutputStream out, String secret, long pid) throws IOException {
        out.writeUTF(GREETING);
        out.writeUTF(secret);
        out.writeLong(pid);
        out.flush();
    }

    /** Reads a worker's hello; returns its pid, or -1 when the greeting or the secret is wrong. */
    public static long readHello(DataInputStream in, String secret) throws IOException {
        String greeting = in.readUTF();
        String theirs = in.readUTF();
        long pid = in.readLong();
        return GREETING.equals(greeting) && java.security.MessageDigest.isEqual(
                theirs.getBytes(java.nio.charset.StandardCharsets.UTF_8), secret.getBytes(java.nio.charset.StandardCharsets.UTF_8)) ? pid : -1;
    }

    public static void writeBatch(ObjectOutputStream out, List<Call> calls) throws IOException {
        out.writeInt(calls.size());
        for (Call c : calls) {
            out.writeLong(c.id());
            out.writeByte(c.kind());
            out.writeObject(c.fn());
            if (c.kind() == APPLY) {
                out.writeObject(c.arg());
            }
        }
        out.flush();
        out.reset();
    }

    /** Reads one batch; an empty array means the pool is done. */
    public static Call[] readBatch(ObjectInputStream in) throws IOException, ClassNotFoundException {
        int n = in.readInt();
        Call[] calls = new Call[n];
        for (int i = 0; i < n; i++) {
            long id = in.readLong();
            byte kind = in.readByte();
            Object fn = in.readObject();
            Object arg = kind == APPLY ? in.readObject() : null;
            calls[i] = new Call(id, kind, fn, arg);
        }
        return calls;
    }

    public static void writeResults(ObjectOutputStream out, Result[] results) throws IOException {
        out.writeInt(results.length);
        for (Result r : results) {
            out.writeLong(r.id());
            out.writeBoolean(r.ok());
            out.writeObject(r.value());
        }
        out.flush();
        out.reset();
    }

    public static Result[] readResults(ObjectInputStream in) throws IOException, ClassNotFoundException {
        int n = in.readInt();
        Result[] results = new Result[n];
        for (int i = 0; i < n; i++) {
            results[i] = new Result(in.readLong(), in.readBoolean(), in.readObject());
        }
        return results;
    }
}
