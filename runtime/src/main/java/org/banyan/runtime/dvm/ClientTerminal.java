package org.banyan.runtime.dvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.IntConsumer;
import org.banyan.runtime.head.OutputOptions;
import org.banyan.runtime.head.OutputSink;
import org.banyan.runtime.os.UserSignals;

/**
 * Where a client's job meets its user: this process's own stdout, stderr, stdin and signals
 * ({@link #own}), or a quick client's, whose descriptors the DVM opened for it and whose signals
 * come over its connection ({@code QuickDoor}).
 */
public interface ClientTerminal {
    /** The sink the job's output and banyan's own lines go to. */
    OutputSink sink(OutputOptions output, int jobId);

    /** Where refusals before a job has a sink go (stderr). */
    void say(String line);

    /** The job's stdin, opened when the job takes it. */
    InputStream stdin() throws IOException;

    /** Has {@code handler} get the user's signals to the job (Ctrl-C, kill, a closed terminal, USR1/2). */
    void onSignals(IntConsumer handler);

    /** Done with the sink: a borrowed terminal's writer ends with its job. */
    default void finished(OutputSink sink) {
        sink.close();
    }

    /** This process's own terminal and signals. */
    static ClientTerminal own() {
        return new ClientTerminal() {
            @Override
            public OutputSink sink(OutputOptions output, int jobId) {
                return new OutputSink(output, jobId);
            }

            @Override
            public void say(String line) {
                System.err.println(line);
            }

            @Override
            public InputStream stdin() {
                return System.in;
            }

            @Override
            public void onSignals(IntConsumer handler) {
                UserSignals.install(handler);
            }
        };
    }

    /** A terminal of streams given: a quick client's; {@code in} opens its stdin when a job takes it. */
    static ClientTerminal of(OutputStream out, OutputStream err, StdinOpener in, java.util.function.Consumer<IntConsumer> signals) {
        return new ClientTerminal() {
            @Override
            public OutputSink sink(OutputOptions output, int jobId) {
                return new OutputSink(output, jobId, out, err);
            }

            @Override
            public void say(String line) {
                try {
                    err.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    err.flush();
                } catch (IOException e) {
                    // nowhere left to say it
                }
            }

            @Override
            public InputStream stdin() throws IOException {
                return in.open();
            }

            @Override
            public void onSignals(IntConsumer handler) {
                signals.accept(handler);
            }

            @Override
            public void finished(OutputSink sink) {
                sink.release();
            }
        };
    }

    /** Opens a stdin when asked. */
    @FunctionalInterface
    interface StdinOpener {
        InputStream open() throws IOException;
    }
}
