package org.banyan.runtime.daemon;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.banyan.runtime.os.Subreaper;

/**
 * A small shell process that outlives the daemon's JVM just long enough to kill its ranks if the
 * JVM dies without doing so itself (SIGKILL, OOM killer, crash): the one failure no Java code
 * can handle. The daemon tells it each rank's pid as the rank starts ({@code + PID}) and ends
 * ({@code - PID}); when its stdin reaches EOF without a final {@code done} line, the daemon is
 * gone, and it kills the ranks still listed, their children and what they left in sessions of
 * their own, with SIGKILL, and removes the files and directories it was told of ({@code f PATH}:
 * the node-local process table, a PMIx job's shared-memory directory).
 *
 * <p>One guard per daemon replaces a {@code setpriv --pdeathsig} exec per rank, which cost a
 * third of the spawn time.
 *
 * <p>A daemon that starts many processes (a DVM's) keeps its pids in a {@link PidTable} instead,
 * a memory-mapped file named to the guard once ({@code t PATH}): then a start or an end costs no
 * system call and no wake-up of the guard, and the guard reads the table when the daemon is gone.
 * Pids the table cannot take still go on the pipe.
 */
final class RankGuard implements Closeable {
    // awk, not a shell loop: its arrays make each line O(1). The first guard kept the pids in a
    // shell string, so each line cost O(ranks running): with 12,500 sleeps per daemon the guard
    // burned a core and, its pipe full, stalled the daemon it guards (bench/concurrency).
    // Signals stay ignored across exec, every one whose default would end it: a SIGQUIT sent to
    // the daemon's process group (`timeout` passes one on to its whole group) killed the guard,
    // and the SIGTERM after it the daemon, leaving its ranks running. At EOF without "done" it
    // kills in batches of 200: each rank's process group (natively spawned ranks lead one), the
    // rank, and its children; then what the ranks left in sessions of their own (STRAYS).
    //
    // Before it reads its pipe, it sweeps $1 (the host's /dev/shm) of the files of daemons that
    // died with their guard (both SIGKILLed): pid tables (banyan-pids-PID-*), process tables
    // (banyan-PID-*.proctable) and PMIx job directories (banyan-PID-*.shm), each named after
    // its daemon's pid. A file whose daemon is gone goes; a pid alive again (reused) keeps its
    // file, a leak being better than removing a live daemon's table; other users' files cannot be
    // removed from the sticky /dev/shm. Here, not in the JVM: a one-shot banyan run exits before
    // a sweeping thread of its own would be done, and its guard outlives it by design.
    // It sweeps $2 (the JVM's temporary directory) the same way of the PMIx servers' directories
    // (banyan-pmix-PID-*): a head killed with its guard (ControlTest kills both) left them.
    private static final String SCRIPT = """
            trap '' INT TERM HUP QUIT USR1 USR2 PIPE ALRM
            if [ -n "$1" ]; then
              for f in "$1"/banyan-pids-* "$1"/banyan-*.proctable "$1"/banyan-*.shm; do
                n=${f##*/banyan-}; n=${n#pids-}; p=${n%%-*}
                case $p in ''|*[!0-9]*) continue ;; esac
                [ "$n" != "$p" ] && [ ! -d "/proc/$p" ] && rm -rf "$f" 2>/dev/null
              done
            fi
            if [ -n "$2" ]; then
              for f in "$2"/banyan-pmix-*; do
                n=${f##*/banyan-pmix-}; p=${n%%-*}
                case $p in ''|*[!0-9]*) continue ;; esac
                [ "$n" != "$p" ] && [ ! -d "/proc/$p" ] && rm -rf "$f" 2>/dev/null
              done
            fi
            exec awk '
              $1 == "+" { pids[$2] = 1; next }
              $1 == "-" { delete pids[$2]; next }
              $1 == "f" { files[$2] = 1; next }
              $1 == "t" { table = $2; next }
              $1 == "done" { done = 1; exit 0 }
              END {
                if (done) exit 0
                if (table != "") {
                  while ((getline line < table) > 0) if (line ~ /^ *[0-9]+$/) { sub(/^ +/, "", line); pids[line] = 1 }
                  close(table); files[table] = 1
                }
                n = 0; list = ""; groups = ""; kids = ""
                for (p in pids) {
                  list = list " " p; groups = groups " -" p; kids = kids (kids == "" ? "" : ",") p
                  if (++n == 200) { system("pkill -KILL -P " kids "; kill -KILL" groups list " 2>/dev/null"); n = 0; list = ""; groups = ""; kids = "" }
                }
                if (n > 0) system("pkill -KILL -P " kids "; kill -KILL" groups list " 2>/dev/null")
                system(ENVIRON["BANYAN_GUARD_STRAYS"])
                for (f in files) system("rm -rf " f)
              }'
            """;

    /**
     * Run by the guard after it killed the ranks: what they left in sessions of their own, the
     * processes whose environment carries this daemon's {@link Subreaper#MARK}, with their process
     * groups. Without the daemon no subreaper holds them, so they are found by the mark, not as
     * children; a few passes, 0.1 s apart, catch what one forked while the last was killed.
     */
    private static final String STRAYS = """
            i=0
            while [ $i -lt 5 ]; do
              found=$(grep -lzs "^%s=$BANYAN_GUARD_ORIGIN:" /proc/[0-9]*/environ)
              [ -z "$found" ] && break
              for e in $found; do p=${e#/proc/}; p=${p%%/environ}; kill -KILL -$p $p 2>/dev/null; done
              i=$((i + 1)); sleep 0.1
            done
            """.formatted(Subreaper.MARK);

    private final Process process;
    private final OutputStream pipe;
    /** Null: every pid goes on the pipe. */
    private final PidTable table;
    private boolean closed;
    private boolean broken;

    /** The guard's process (for tests). */
    long pid() {
        return process.pid();
    }

    private RankGuard(Process process, PidTable table) {
        this.process = process;
        this.pipe = process.getOutputStream();
        this.table = table;
    }

    /** A guard whose pids all go on its pipe. */
    static RankGuard start() throws IOException {
        return start(null);
    }

    /** @param tableDir where the pid table goes (tmpfs), or null for none; also swept of dead daemons' files */
    static RankGuard start(Path tableDir) throws IOException {
        return start(tableDir, tableDir);
    }

    /**
     * @param tableDir where the pid table goes (tmpfs), or null for none
     * @param sweepDir where dead daemons' tables are swept from, or null for nowhere
     */
    static RankGuard start(Path tableDir, Path sweepDir) throws IOException {
        return start(tableDir, sweepDir, sweepDir == null ? null : Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** @param pmixDir where dead processes' PMIx server directories are swept from, or null for nowhere */
    static RankGuard start(Path tableDir, Path sweepDir, Path pmixDir) throws IOException {
        ProcessBuilder b = new ProcessBuilder("sh", "-c", SCRIPT, "banyan-rank-guard",
                sweepDir == null ? "" : sweepDir.toString(), pmixDir == null ? "" : pmixDir.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        b.environment().put("BANYAN_GUARD_ORIGIN", Long.toString(ProcessHandle.current().pid()));
        b.environment().put("BANYAN_GUARD_STRAYS", STRAYS);
        Process p = org.banyan.runtime.os.ProcessStarts.start(b);
        PidTable table = tableDir == null ? null : PidTable.create(tableDir);
        RankGuard g = new RankGuard(p, table);
        if (table != null) {
            g.write("t " + table.path() + "\n");
        }
        return g;
    }

    /** The daemon's tmpfs for a pid table, or null when it has none. */
    static Path tableDir() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : null;
    }

    /**
     * A rank started: its slot in the pid table, to be given back to {@link #ended}, or -1 when
     * it went on the pipe (or the guard is closed).
     */
    synchronized int started(long pid) {
        if (closed) {
            return -1;
        }
        int slot = table != null ? table.add(pid) : -1;
        if (slot < 0) {
            write("+ " + pid + "\n");
        }
        return slot;
    }

    /** A file or directory the daemon made (a path without spaces) that goes if the daemon dies without removing it. */
    synchronized void owns(String path) {
        write("f " + path + "\n");
    }

    /** The rank {@link #started} gave {@code slot} ended. */
    synchronized void ended(long pid, int slot) {
        if (closed || (table != null && table.remove(pid, slot))) {
            return;
        }
        write("- " + pid + "\n");
    }

    private synchronized void write(String line) {
        if (broken) {
            return;
        }
        try {
            pipe.write(line.getBytes(StandardCharsets.US_ASCII));
            pipe.flush();
        } catch (IOException e) {
            // The guard is gone: the daemon still ends its ranks itself on every path it survives.
            broken = true;
        }
    }

    /** Closes the pipe without "done", as the daemon's death does (for tests). */
    synchronized void dropPipe() throws IOException {
        pipe.close();
    }

    /** The daemon ended its ranks itself: the guard exits without killing anything. */
    @Override
    public synchronized void close() {
        write("done\n");
        try {
            pipe.close();
        } catch (IOException ignored) {
            // closing
        }
        process.destroy();
        closed = true;
        if (table != null) {
            table.close();
        }
    }
}
