package org.banyan.pilot;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.banyan.core.pilot.TaskState;

/**
 * A session's profile: every event one CSV line in the columns RADICAL-Pilot's profiles use,
 * {@code time,event,comp,thread,uid,state,msg} (time in seconds since the epoch, UTF-8), so that
 * its users' scripts and habits carry over. {@code banyan pilot report} reads it back.
 *
 * <p>A pilot writes 17 lines a task, so lines are encoded straight into one byte buffer: a
 * {@code String} per line and a writer's char-to-byte pass cost the submitting client about a
 * fifth of its CPU at thousands of tasks a second.
 *
 * <p>Several threads write (the submitter, each pilot's reader, the flusher), so an intrinsic
 * lock here was soon inflated, and under C1 every entry to an inflated monitor is a call into the
 * VM: a fifth of a pilot reader's samples at 17 entries a task. A {@link ReentrantLock} is taken
 * by a compare-and-set in compiled code, and a task's state change writes all the states it
 * fills in under one taking ({@link #states}).
 */
public final class Profile implements Closeable {
    public static final String FILE = "banyan.prof";
    public static final String HEADER = "#time,event,comp,thread,uid,state,msg";
    /** Lines are written out once this much is buffered. */
    private static final int FLUSH_AT = 60 * 1024;
    /**
     * ...and at least this often: a slow session's events would otherwise wait in the buffer for
     * hours (users tail the profile), and a client killed outright would lose them.
     */
    static final long FLUSH_EVERY_MILLIS = 1_000;

    private final OutputStream out;
    private final Line line = new Line(64 * 1024);
    private final Thread flusher;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean failed;
    /** Why the profile could not be written whole (a full disk), or null. */
    private volatile String failure;
    private boolean closed;

    /** @throws java.nio.file.FileAlreadyExistsException if {@code sessionDir} holds a profile already */
    public Profile(Path sessionDir) throws IOException {
        this(open(sessionDir));
    }

    private static OutputStream open(Path sessionDir) throws IOException {
        Files.createDirectories(sessionDir);
        return Files.newOutputStream(sessionDir.resolve(FILE), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /** A profile written to {@code out} (a test's). */
    Profile(OutputStream out) throws IOException {
        this.out = out;
        out.write((HEADER + "\n").getBytes(StandardCharsets.UTF_8));
        flusher = Thread.ofVirtual().name("profile-flush").start(this::flushEverySecond);
    }

    private void flushEverySecond() {
        while (true) {
            try {
                Thread.sleep(FLUSH_EVERY_MILLIS);
            } catch (InterruptedException e) {
                return; // closed
            }
            lock.lock();
            try {
                if (closed) {
                    return;
                }
                if (!failed && line.size > 0) {
                    flush();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** One event; {@code timeMicros} since the epoch. */
    public void event(long timeMicros, String event, String comp, String uid, String state, String msg) {
        lock.lock();
        try {
            add(timeMicros, event, comp, Thread.currentThread().getName(), uid, state, msg);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A task's move through {@code path} (the states it reached, skipped ones first, as
     * {@link TaskState#path} gives them) at {@code timeMicros}: a {@code state} line each, the
     * last with {@code why}.
     */
    public void states(long timeMicros, String uid, List<TaskState> path, String why) {
        String thread = Thread.currentThread().getName();
        lock.lock();
        try {
            int last = path.size() - 1;
            for (int i = 0; i <= last; i++) {
                TaskState s = path.get(i);
                add(timeMicros, "state", s.component(), thread, uid, s.name(), i == last ? why : "");
            }
        } finally {
            lock.unlock();
        }
    }

    /** When a task's process really ran, as RADICAL-Pilot's {@code exec_start} and {@code exec_stop} lines. */
    public void exec(long startMicros, long endMicros, String uid) {
        String thread = Thread.currentThread().getName();
        lock.lock();
        try {
            add(startMicros, "exec_start", "agent", thread, uid, "", "");
            add(endMicros, "exec_stop", "agent", thread, uid, "", "");
        } finally {
            lock.unlock();
        }
    }

    /** One line, under the lock; none once the profile is closed or could not be written. */
    private void add(long timeMicros, String event, String comp, String thread, String uid, String state, String msg) {
        if (failed || closed) {
            return;
        }
        line.event(timeMicros, event, comp, thread, uid, state, msg);
        line.put('\n');
        if (line.size > FLUSH_AT) {
            flush();
        }
    }

    private void flush() {
        try {
            out.write(line.bytes, 0, line.size);
        } catch (IOException e) {
            failed = true; // a profile that cannot be written must not stop the tasks
            failure = org.banyan.runtime.os.FileErrors.reason(e);
        }
        line.size = 0;
    }

    /**
     * Writes out what is buffered, and says why the profile is incomplete (a full disk), or null
     * when every line so far is in it: the reader of a session's summary is told, not left to
     * plot a truncated profile.
     */
    public String flushNow() {
        lock.lock();
        try {
            if (!failed && !closed && line.size > 0) {
                flush();
            }
            return failure;
        } finally {
            lock.unlock();
        }
    }

    /** One line without its newline, as {@link #event} writes it. */
    static String line(long timeMicros, String event, String comp, String thread, String uid, String state, String msg) {
        Line l = new Line(16);
        l.event(timeMicros, event, comp, thread, uid, state, msg);
        return new String(l.bytes, 0, l.size, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            flusher.interrupt();
            if (!failed && line.size > 0) {
                flush();
            }
            try {
                out.close();
            } catch (IOException e) {
                // as above
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A growing UTF-8 buffer that lines are encoded into.
     *
     * <p>Nearly every line repeats a few strings in its name columns (the event, component, thread
     * and state names) and the second of its time: those are kept encoded. Encoding them afresh
     * took about half of the 17 lines' cost, and the lines a third of the submitting client's
     * CPU per task.
     */
    private static final class Line {
        /**
         * Encoded names by hash, each looked for in {@link #WAYS} neighbouring slots (one slot each
         * put "tmgr" with a state name and the reader's thread name with another, and they took
         * turns), and used only for the very instance they came from.
         */
        private static final int NAMES = 128;
        private static final int WAYS = 4;
        private final String[] names = new String[NAMES];
        private final byte[][] encoded = new byte[NAMES][];
        /** The whole seconds of the last time written, and their digits (with sign and point). */
        private long lastSeconds = Long.MIN_VALUE;
        private byte[] secondsText;
        /** The last uid written and its encoding (null: none yet, and a null uid writes nothing). */
        private String lastUid;
        private byte[] lastUidBytes = new byte[0];
        byte[] bytes;
        int size;

        Line(int capacity) {
            bytes = new byte[capacity];
        }

        void event(long timeMicros, String event, String comp, String thread, String uid, String state, String msg) {
            time(timeMicros);
            put(',');
            name(event);
            put(',');
            name(comp);
            put(',');
            name(thread); // a comma in a thread's name would shift the columns
            put(',');
            uid(uid);
            put(',');
            name(state);
            put(',');
            text(msg, true);
        }

        /**
         * As {@code text(s, false)}, from the cache when {@code s} is the instance encoded there:
         * a string's content never changes, so identity is all the check needs.
         */
        private void name(String s) {
            if (s == null) {
                return;
            }
            int h = s.hashCode();
            h ^= h >>> 16;
            int free = -1;
            for (int i = 0; i < WAYS; i++) {
                int slot = (h + i) & (NAMES - 1);
                String k = names[slot];
                if (k == s) {
                    put(encoded[slot]);
                    return;
                }
                if (k == null && free < 0) {
                    free = slot;
                }
            }
            int from = size;
            text(s, false);
            int slot = free >= 0 ? free : h & (NAMES - 1); // all taken: the first gives way
            names[slot] = s;
            encoded[slot] = java.util.Arrays.copyOfRange(bytes, from, size);
        }

        /**
         * As {@code text(uid, false)}, from the last uid's bytes when it is the same instance: a
         * task's events come in runs (the states a transition fills in, each with its line), and
         * encoding the uid char by char was a fifth of the lines' cost.
         */
        private void uid(String uid) {
            if (uid == lastUid) {
                put(lastUidBytes);
                return;
            }
            int from = size;
            text(uid, false);
            lastUid = uid;
            lastUidBytes = java.util.Arrays.copyOfRange(bytes, from, size);
        }

        /** Seconds, a point and six digits of microseconds, with integer arithmetic only. */
        private void time(long micros) {
            long seconds = Math.floorDiv(micros, 1_000_000L);
            int fraction = (int) Math.floorMod(micros, 1_000_000L);
            if (seconds != lastSeconds) {
                secondsText = seconds(seconds);
                lastSeconds = seconds;
            }
            room(secondsText.length + 6);
            System.arraycopy(secondsText, 0, bytes, size, secondsText.length);
            size += secondsText.length;
            for (int i = size + 5; i >= size; i--) {
                bytes[i] = (byte) ('0' + fraction % 10);
                fraction /= 10;
            }
            size += 6;
        }

        /** {@code seconds} in decimal, then a point. */
        private static byte[] seconds(long seconds) {
            byte[] out = new byte[22];
            int at = out.length;
            out[--at] = '.';
            long v = Math.abs(seconds); // Long.MIN_VALUE seconds is beyond any microsecond time
            do {
                out[--at] = (byte) ('0' + v % 10);
                v /= 10;
            } while (v > 0);
            if (seconds < 0) {
                out[--at] = '-';
            }
            return java.util.Arrays.copyOfRange(out, at, out.length);
        }

        /**
         * {@code s} in UTF-8 (an unpaired surrogate as {@code ?}, as Java's encoder writes it);
         * commas become blanks in a name, and in a message {@code ;} while line ends become
         * blanks, so that every event stays one line of seven columns.
         */
        private void text(String s, boolean message) {
            if (s == null) {
                return;
            }
            int n = s.length();
            room(3 * n);
            byte[] b = bytes;
            int at = size;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    if (c == ',') {
                        c = message ? ';' : ' ';
                    } else if (message && (c == '\n' || c == '\r')) {
                        c = ' ';
                    }
                    b[at++] = (byte) c;
                } else if (c < 0x800) {
                    b[at++] = (byte) (0xc0 | c >> 6);
                    b[at++] = (byte) (0x80 | c & 0x3f);
                } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(++i));
                    b[at++] = (byte) (0xf0 | cp >> 18);
                    b[at++] = (byte) (0x80 | cp >> 12 & 0x3f);
                    b[at++] = (byte) (0x80 | cp >> 6 & 0x3f);
                    b[at++] = (byte) (0x80 | cp & 0x3f);
                } else if (Character.isSurrogate(c)) {
                    b[at++] = '?';
                } else {
                    b[at++] = (byte) (0xe0 | c >> 12);
                    b[at++] = (byte) (0x80 | c >> 6 & 0x3f);
                    b[at++] = (byte) (0x80 | c & 0x3f);
                }
            }
            size = at;
        }

        /** Bytes encoded before. */
        private void put(byte[] encoded) {
            room(encoded.length);
            System.arraycopy(encoded, 0, bytes, size, encoded.length);
            size += encoded.length;
        }

        void put(char c) {
            room(1);
            bytes[size++] = (byte) c;
        }

        private void room(int more) {
            if (bytes.length - size < more) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + more));
            }
        }
    }
}
