package org.banyan.pilot.function;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.Serializable;
import java.net.Socket;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.banyan.pilot.RemoteFunctionException;

/**
 * A worker JVM of a function pool: a task on the pilot like any other (one core), started with
 * the caller's class path so the functions' classes load here. It dials the pool
 * ({@code BANYAN_FN_CONTACT} host:port, {@code BANYAN_FN_SECRET}), then runs batch after batch
 * on one thread and writes each batch's results back ({@link FunctionWire}). It ends, with
 * status 0, when the pool says so or the connection closes.
 */
public final class FunctionWorker {
    private FunctionWorker() {}

    public static void main(String[] args) throws Exception {
        String contact = System.getenv("BANYAN_FN_CONTACT");
        String secret = System.getenv("BANYAN_FN_SECRET");
        if (contact == null || secret == null) {
            System.err.println("banyan function worker: BANYAN_FN_CONTACT and BANYAN_FN_SECRET must be set");
            System.exit(2);
        }
        int colon = contact.lastIndexOf(':');
        try (Socket s = new Socket(contact.substring(0, colon), Integer.parseInt(contact.substring(colon + 1)))) {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
            String notThePool = greet(s, in, out, secret);
            if (notThePool != null) {
                System.err.println("banyan function worker: " + contact + " " + notThePool + "; nothing was read from it");
                System.exit(2);
            }
            while (true) {
                FunctionWire.Call[] calls;
                try {
                    calls = FunctionWire.readBatch(in);
                } catch (java.io.EOFException | java.net.SocketException e) {
                    return; // the pool is gone
                }
                if (calls.length == 0) {
                    return;
                }
                FunctionWire.Result[] results = new FunctionWire.Result[calls.length];
                for (int i = 0; i < calls.length; i++) {
                    results[i] = run(calls[i]);
                }
                FunctionWire.writeFrame(out, frame(results));
            }
        }
    }

    /**
     * The hello: the pool's challenge answered, and its proof checked before anything it sends is
     * deserialized (what listens at the contact may be another's, once the pool is gone). Null
     * when the pool proved the secret, else why it is not taken for the pool.
     */
    static String greet(Socket s, DataInputStream in, DataOutputStream out, String secret) throws java.io.IOException {
        s.setTcpNoDelay(true);
        s.setSoTimeout(FunctionWire.HELLO_MILLIS);
        try {
            byte[] expected = FunctionWire.hello(in, out, secret, ProcessHandle.current().pid());
            if (!FunctionWire.poolProven(in, expected)) {
                return "did not prove the pool's secret: it is not this worker's pool";
            }
        } catch (java.net.SocketTimeoutException e) {
            return "said nothing for " + FunctionWire.HELLO_MILLIS + " ms: it is not this worker's pool";
        } catch (java.io.IOException e) {
            return "is not this worker's pool: " + e.getMessage();
        }
        s.setSoTimeout(0);
        return null;
    }

    /** The results' frame; a result that cannot be serialized (deep inside, too) fails its call alone. */
    static byte[] frame(FunctionWire.Result[] results) throws java.io.IOException {
        try {
            return FunctionWire.results(results);
        } catch (java.io.IOException e) {
            for (int i = 0; i < results.length; i++) {
                try {
                    FunctionWire.results(new FunctionWire.Result[] {results[i]});
                } catch (java.io.IOException bad) {
                    results[i] = new FunctionWire.Result(results[i].id(), false, new RemoteFunctionException(
                            bad.getClass().getName(), "the result cannot be serialized: " + bad.getMessage(), new StackTraceElement[0]));
                }
            }
            return FunctionWire.results(results);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static FunctionWire.Result run(FunctionWire.Call c) {
        if (c.kind() == FunctionWire.UNREADABLE) {
            return new FunctionWire.Result(c.id(), false, RemoteFunctionException.of((Throwable) c.fn()));
        }
        try {
            Object value = c.kind() == FunctionWire.CALLABLE ? ((Callable<?>) c.fn()).call() : ((Function) c.fn()).apply(c.arg());
            if (value != null && !(value instanceof Serializable)) {
                return new FunctionWire.Result(c.id(), false, new RemoteFunctionException("java.io.NotSerializableException",
                        "the result, a " + value.getClass().getName() + ", is not serializable", new StackTraceElement[0]));
            }
            return new FunctionWire.Result(c.id(), true, value);
        } catch (Throwable t) {
            return new FunctionWire.Result(c.id(), false, RemoteFunctionException.of(t));
        }
    }
}
