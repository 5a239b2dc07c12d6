package org.banyan.runtime.os;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * File-system calls that a loop needs the answer of, made on a pool thread and waited for a
 * bounded time: a hung mount (an NFS server gone) holds the pool's thread, never the caller.
 * A thread held so stays until the mount answers (nothing takes a thread out of such a call);
 * the pool makes a new one for the next call.
 */
public final class PatientFiles {
    private static final ExecutorService POOL = Executors.newCachedThreadPool(
            r -> Thread.ofPlatform().daemon().stackSize(256 << 10).name("patient-files").unstarted(r));

    private PatientFiles() {
    }

    /** A file system that did not answer in time. */
    public static final class NoAnswer extends IOException {
        NoAnswer(long millis) {
            super("its file system did not answer in " + (millis >= 1000 ? millis / 1000 + " s" : millis + " ms"));
        }
    }

    /** What {@code call} gives, if it answers within {@code millis}; its own IOException otherwise, or {@link NoAnswer}. */
    public static <T> T within(long millis, Callable<T> call) throws IOException {
        CompletableFuture<T> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, POOL);
        try {
            return answer.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new NoAnswer(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
