package org.banyan.runtime.os;

import java.io.IOException;
import java.util.concurrent.locks.Lock;
import org.banyan.pmix.CCall;

/**
 * {@link ProcessBuilder#start} under the C environment's read lock ({@link CCall#ENVIRONMENT}).
 * The JDK hands libc's {@code environ} itself to {@code posix_spawn} of its helper, and a
 * {@code setenv} on another thread may free that array meanwhile: the daemon's rank guard
 * ({@code sh}) once failed to start with "posix_spawn failed, error: 14 (Bad address)" while the
 * PMIx server's start set its variables. Every process a daemon or head JVM starts through the
 * JDK goes through here; {@link PosixSpawn} takes the same lock.
 */
public final class ProcessStarts {
    private ProcessStarts() {}

    /**
     * Starts {@code pb}: marked as this JVM's helper ({@link Subreaper#HELPER}) unless it is a
     * rank (its environment carries {@link Subreaper#MARK}, and {@link LauncherVariables} took
     * the helper mark out of it).
     */
    public static Process start(ProcessBuilder pb) throws IOException {
        if (!pb.environment().containsKey(Subreaper.MARK)) {
            pb.environment().put(Subreaper.HELPER, Subreaper.self());
        }
        Lock lock = CCall.ENVIRONMENT.readLock();
        lock.lock();
        try {
            return pb.start();
        } finally {
            lock.unlock();
        }
    }
}
