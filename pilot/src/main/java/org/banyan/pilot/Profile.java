package org.banyan.pilot;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

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
            out.write(String.format(Locale.ROOT, "%.6f,%s,%s,%s,%s,%s,%s", timeMicros / 1e6, event, comp,
                    Thread.currentThread().getName().replace(',', ' '), uid, state, clean(msg)));
            out.newLine();
        } catch (IOException e) {
            // a profile that cannot be written must not stop the tasks
        }
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
