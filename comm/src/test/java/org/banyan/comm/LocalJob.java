package org.banyan.comm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * N ranks as threads of this JVM, each with its own engine and world communicator, and the
 * endpoints exchanged through a map: the library's real transports without a Banyan job.
 */
final class LocalJob {
    interface Body<T> {
        T run(Comm world) throws Exception;
    }

    private LocalJob() {}

    /** The jobs' secret in these tests. */
    static final byte[] SECRET = "a test job's secret, 32 bytes..".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Runs {@code body} on {@code n} ranks; ranks on hosts {@code hostOf(rank)}. Returns each rank's result. */
    static <T> List<T> run(int n, IntFunction<String> hostOf, Map<String, String> env, Body<T> body) throws Exception {
        return run(n, hostOf, r -> env, body);
    }

    /** As above, each rank with its own environment {@code envOf(rank)}. */
    static <T> List<T> run(int n, IntFunction<String> hostOf, IntFunction<Map<String, String>> envOf, Body<T> body) throws Exception {
        Map<String, String> kv = new ConcurrentHashMap<>();
        CyclicBarrier fence = new CyclicBarrier(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> results = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                Endpoints ep = new Endpoints() {
                    @Override
                    public void publish(String key, String value) {
                        kv.put(rank + "/" + key, value);
                    }

                    @Override
                    public void exchange() {
                        try {
                            fence.await(60, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            throw new CommException("fence failed", e);
                        }
                    }

                    @Override
                    public String lookup(int owner, String key) {
                        String v = kv.get(owner + "/" + key);
                        if (v == null) {
                            throw new CommException("rank " + owner + " published no " + key);
                        }
                        return v;
                    }

                    @Override
                    public String host(int of) {
                        return hostOf.apply(of);
                    }

                    @Override
                    public byte[] secret() { // as a daemon gives it: TCP connections prove it
                        return SECRET.clone();
                    }
                };
                results.add(pool.submit(() -> {
                    try (Comm world = World.create(rank, n, ep, envOf.apply(rank))) {
                        return body.run(world);
                    }
                }));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : results) {
                try {
                    out.add(f.get(120, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception x) {
                        throw x;
                    }
                    throw e;
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
