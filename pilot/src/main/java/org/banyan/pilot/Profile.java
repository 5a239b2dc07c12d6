package org.banyan.pilot;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A session's profile: every event one CSV line in the columns RADICAL-Pilot's profiles use,
 * {@code time,event,comp,thread,uid,state,msg} (time in seconds since the epoch), so that its
 * users' scripts and habits carry over. {@code banyan pilot report} reads it back.
 */
public final class Profile implements Closeable {
    public static final String FILE = "banyan.prof";
    public static final String HEADER = "#time,event,comp,thread,uid,state,msg";

    private final BufferedWriter out;

    public Profile(Path sessionDir) throws IOException {
        Files.createDirectories(sessionDir);
        out = Files.newBufferedWriter(sessionDir.resolve(FILE));
        out.write(HEADER);
        out.newLine();
    }

    /** One event; {@code timeMicros} since the epoch. */
    public synchronized void event(long timeMicros, String event, String comp, String uid, String state, String msg) {
        try {
            out.write(line(timeMicros, event, comp, Thread.currentThread().getName().replace(',', ' '), uid, state, msg));
            out.newLine();
        } catch (IOException e) {
            // a profile that cannot be written must not stop the tasks
        }
    }

    /**
     * One line without its newline. The time is written with integer arithmetic, not
     * {@code String.format}: a pilot writes 17 lines a task, and the formatter was the client's
     * largest cost at thousands of tasks a second.
     */
    static String line(long timeMicros, String event, String comp, String thread, String uid, String state, String msg) {
        StringBuilder b = new StringBuilder(96);
        long seconds = Math.floorDiv(timeMicros, 1_000_000L);
        long micros = Math.floorMod(timeMicros, 1_000_000L);
        b.append(seconds).append('.');
        String fraction = Long.toString(micros);
        b.repeat('0', 6 - fraction.length()).append(fraction);
        return b.append(',').append(event).append(',').append(comp).append(',').append(thread).append(',')
                .append(uid).append(',').append(state).append(',').append(clean(msg)).toString();
    }

    private static String clean(String msg) {
        return msg == null ? "" : msg.replace('\n', ' ').replace(',', ';');
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            // as above
        }
    }
}
