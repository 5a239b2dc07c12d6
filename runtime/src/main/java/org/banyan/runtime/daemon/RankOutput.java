package org.banyan.runtime.daemon;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.os.PipePoller;

/**
 * One stream of a natively spawned rank, read by the {@link PipePoller}: chunks that end at a
 * line's end ({@link WholeLines}) go on as {@link OverlayMessage.Output} frames; a partial line
 * is held while more of it may come, and goes as it is after {@code promptWait} nanoseconds of
 * silence (a prompt; 0: only at the end). {@link #drained} completes after the last frame.
 */
final class RankOutput implements PipePoller.Reader {
    private final int jobId;
    private final int rank;
    private final int stream;
    private final Consumer<OverlayMessage> output;
    private final long promptWait;
    private final WholeLines lines = new WholeLines();
    private volatile long deadline = Long.MAX_VALUE;
    final CompletableFuture<Void> drained = new CompletableFuture<>();

    RankOutput(int jobId, int rank, int stream, Consumer<OverlayMessage> output, long promptWait) {
        this.jobId = jobId;
        this.rank = rank;
        this.stream = stream;
        this.output = output;
        this.promptWait = promptWait;
    }

    @Override
    public void data(byte[] buf, int n) {
        byte[] whole = lines.add(buf, n);
        if (whole != null) {
            output.accept(new OverlayMessage.Output(jobId, rank, stream, whole));
        }
        deadline = promptWait > 0 && lines.holding() ? System.nanoTime() + promptWait : Long.MAX_VALUE;
    }

    @Override
    public long deadline() {
        return deadline;
    }

    @Override
    public void timeout() {
        deadline = Long.MAX_VALUE;
        if (lines.holding()) {
            output.accept(new OverlayMessage.Output(jobId, rank, stream, lines.take()));
        }
    }

    /** The rank has ended: what its pipe holds is read, then the stream ends (a descendant may hold the pipe open). */
    void finish() {
        PipePoller.shared().finish(this);
    }

    @Override
    public void ended() {
        deadline = Long.MAX_VALUE;
        if (lines.holding()) {
            output.accept(new OverlayMessage.Output(jobId, rank, stream, lines.take()));
        }
        drained.complete(null);
    }
}
