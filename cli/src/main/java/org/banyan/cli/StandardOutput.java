package org.banyan.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The command's standard output, which remembers why a write failed. {@code System.out} swallows
 * its errors: {@code banyan submit --detach > /dev/full}, whose id a script reads, and {@code
 * banyan dvm status >&-} lost what they printed and exited 0. At exit the command says why and
 * exits 1, as coreutils' commands do, or 141 without a word when a pipe's reader left (as
 * {@code | head} ends a command by SIGPIPE, which the JVM ignores).
 */
final class StandardOutput extends FilterOutputStream {
    /** The status a command ended by SIGPIPE has. */
    static final int BROKEN_PIPE = 128 + 13;

    private volatile IOException failure;

    private StandardOutput(OutputStream out) {
        super(out);
    }

    /** Replaces {@code System.out} with one whose failure {@link #checked} sees; the same charset and flushing. */
    static StandardOutput install() {
        StandardOutput s = new StandardOutput(new FileOutputStream(FileDescriptor.out));
        System.setOut(new PrintStream(new BufferedOutputStream(s, 8192), true, System.out.charset()));
        return s;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /**
     * The status to exit with, {@code status} unless what the command printed was lost: then
     * said on stderr by {@code command} (the pipe's case aside) and 1, or 141 for a pipe.
     */
    int checked(int status, String command) {
        System.out.flush();
        IOException e = failure;
        if (e == null) {
            return status;
        }
        if (org.banyan.runtime.os.FileErrors.brokenPipe(e)) {
            return status == 0 ? BROKEN_PIPE : status;
        }
        System.err.println(command + ": cannot write its output (" + org.banyan.runtime.os.FileErrors.reason(e) + ")");
        return status == 0 ? 1 : status;
    }
}
