package org.banyan.cli.dvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.banyan.cli.options.UsageException;
import org.banyan.cli.place.MonitorGather;
import org.banyan.cli.run.RunArguments;
import org.banyan.cli.run.RunRequest;
import org.banyan.runtime.dvm.ClientTerminal;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;
import org.banyan.runtime.dvm.QuickDoor;
import org.banyan.runtime.dvm.QuickRequest;
import org.banyan.runtime.os.NonBlockingOutput;

/**
 * {@code banyan run --dvm} for a quick client, inside the DVM's own JVM: the arguments parsed as
 * the client's JVM would have (its environment, its working directory), the job run through
 * this DVM's client door as a {@link DvmClient}, its output written to the client's own stdout
 * and stderr (their {@code /proc/PID/fd} links, through duplicates the script keeps), its stdin
 * read from the client's.
 *
 * <p>Whatever would run differently here than in the client's own JVM falls back to that JVM
 * before anything starts: help, usage errors (the JVM says them), another DVM, {@code
 * --report-pid}, monitoring (gathered by the client), and a stdout, stderr or taken stdin that
 * is a regular file or a socket: a file's offset is shared with the client's shell, which a
 * second open of it would not share (output written over, input read twice); a socket cannot
 * be opened again at all.
 */
final class QuickRun implements QuickDoor.Runner {
    private final DvmFiles files;

    QuickRun(DvmFiles files) {
        this.files = files;
    }

    @Override
    public void run(QuickRequest r, QuickDoor.Session session) throws IOException {
        String why = unfit(r);
        Path fd = Path.of("/proc", Long.toString(r.pid()), "fd");
        if (why == null) {
            why = notReopenable("stdout", fd.resolve(Integer.toString(r.out())));
            if (why == null) {
                why = notReopenable("stderr", fd.resolve(Integer.toString(r.err())));
            }
        }
        if (why != null) {
            session.fallback(why);
            return;
        }
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            // non-blocking descriptions of their own: a client killed while its reader takes nothing
            // must not leave a thread of the DVM in write(2) for as long as that reader lives
            OutputStream out = keep(opened, NonBlockingOutput.open(fd.resolve(Integer.toString(r.out()))));
            OutputStream err = keep(opened, NonBlockingOutput.open(fd.resolve(Integer.toString(r.err()))));
            Path cwd;
            try { // the directory itself, as the client's JVM would have had it from getcwd
                cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(r.pid()), "cwd"));
            } catch (IOException e) {
                session.fallback("cannot see the client's working directory: " + e.getMessage());
                return;
            }
            if (cwd.toString().endsWith(" (deleted)") || !Files.isDirectory(cwd)) {
                session.fallback("the client's working directory is gone"); // the script says so itself
                return;
            }
            RunRequest request;
            try {
                request = new RunArguments(r.env(), cwd)
                        .notices(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8))
                        .parse(r.args().subList(1, r.args().size()));
            } catch (UsageException | RuntimeException e) {
                session.fallback("the arguments are the JVM client's to refuse");
                return;
            }
            why = unfit(request);
            if (why == null && request.dvmJob().stdinRank() != -1) {
                why = notReopenable("stdin", fd.resolve(Integer.toString(r.in())));
            }
            String timeout = r.env().get(org.banyan.runtime.dvm.AnswerTimeout.VARIABLE);
            try {
                org.banyan.runtime.dvm.AnswerTimeout.millis(timeout);
            } catch (IllegalArgumentException e) {
                why = "its " + org.banyan.runtime.dvm.AnswerTimeout.VARIABLE + " is the JVM client's to refuse";
            }
            if (why != null) {
                session.fallback(why);
                return;
            }
            Signals signals = new Signals();
            ClientTerminal terminal = ClientTerminal.of(out, err, () -> {
                FileChannel in = FileChannel.open(fd.resolve(Integer.toString(r.in())), StandardOpenOption.READ);
                keep(opened, in); // closed at the end: a read blocked on a terminal returns
                return Channels.newInputStream(in);
            }, signals::install);
            DvmClient client;
            try {
                client = DvmClient.connect(files, "banyan run (quick client, pid " + r.pid() + ")", timeout);
            } catch (DvmClient.Unreachable e) { // said here: the JVM client would only wait as long again to say it
                if (session.started(signals::deliver, () -> { })) {
                    terminal.say("banyan run: " + e.getMessage());
                    session.finish(2);
                }
                return;
            }
            keep(opened, client);
            if (!session.started(signals::deliver, () -> { // gone: the job ends, and so does any write to its reader
                client.close();
                closeQuietly(out);
                closeQuietly(err);
            })) {
                return; // the client went, or ended its request, while it was read
            }
            int status;
            try {
                status = client.run(request.dvmJob(), request.output(), terminal);
            } catch (IOException e) {
                terminal.say(DvmClient.lost("banyan run", e));
                status = 1;
            }
            session.finish(status);
        } finally {
            closeAll(opened);
        }
    }

    /** Why the words themselves are not for this door, or null. */
    private static String unfit(QuickRequest r) {
        List<String> args = r.args();
        if (args.size() < 2 || !args.getFirst().equals("run")) {
            return "not banyan run with arguments";
        }
        for (String a : args.subList(1, args.size())) {
            if (a.equals("--help") || a.equals("-h") || a.equals("--version") || a.equals("-V")) {
                return "help or version"; // wherever it is (a program's own --help included): rare, and the JVM knows
            }
        }
        return null;
    }

    /** Why the parsed run is not for this door, or null. */
    private String unfit(RunRequest request) {
        if (request.dvm() == null) {
            return "not a run on a DVM";
        }
        try {
            if (!Files.isSameFile(request.dvm().uri(), files.uri())) {
                return "another DVM's run";
            }
        } catch (IOException e) {
            return "its DVM file: " + e.getMessage();
        }
        if (request.dvm().unsafe() != null) {
            return "the DVM's files are not safe (the JVM client says why)";
        }
        if (request.reportPid() != null) {
            return "--report-pid names the client's own process";
        }
        if (MonitorGather.directory(request.dvmJob().apps()) != null) {
            return "monitoring gathers profiles in the client";
        }
        return null;
    }

    /** Why the client's {@code what} ({@code link}) cannot be opened again here as the client's own, or null. */
    private static String notReopenable(String what, Path link) {
        String target;
        try {
            target = Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            return "cannot see the client's " + what + ": " + e.getMessage();
        }
        if (target.startsWith("socket:") || target.startsWith("anon_inode:")) {
            return "its " + what + " is a " + target.replaceAll(":.*", "");
        }
        if (target.startsWith("pipe:")) {
            return null;
        }
        if (Files.isRegularFile(link) || Files.isDirectory(link)) {
            return "its " + what + " is a file";
        }
        try { // a named FIFO opened again waits for a reader (or writer) that may have left for good
            if (((Integer) Files.getAttribute(link, "unix:mode") & S_IFMT) == S_IFIFO) {
                return "its " + what + " is a named FIFO";
            }
        } catch (IOException | RuntimeException e) {
            return "cannot see the client's " + what + ": " + e.getMessage();
        }
        return null;
    }

    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;

    /** What is opened for a client, closed at its end; one opened after that (its stdin, late) is closed at once. */
    private static <T extends AutoCloseable> T keep(List<AutoCloseable> opened, T c) {
        synchronized (opened) {
            if (opened.contains(CLOSED)) {
                closeQuietly(c);
            } else {
                opened.add(c);
            }
        }
        return c;
    }

    private static final AutoCloseable CLOSED = () -> { };

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closed already
        }
    }

    private static void closeAll(List<AutoCloseable> opened) {
        List<AutoCloseable> all;
        synchronized (opened) {
            all = new ArrayList<>(opened);
            opened.add(CLOSED);
        }
        for (AutoCloseable c : all.reversed()) {
            closeQuietly(c);
        }
    }

    /** The client's signals: held until the job has a handler, then passed on. */
    private static final class Signals {
        private IntConsumer handler;
        private final List<Integer> early = new ArrayList<>();

        synchronized void install(IntConsumer h) {
            handler = h;
            early.forEach(h::accept);
            early.clear();
        }

        synchronized void deliver(int sig) {
            if (handler != null) {
                handler.accept(sig);
            } else {
                early.add(sig);
            }
        }
    }
}
