import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The floor of a two-copy transfer between two processes of this host (prints figures; not a
 * test): one process copies a heap array into a ring of shared memory in records, the other
 * copies them out into its own heap array, with nothing else (one flag a record, spinning). It is
 * what banyan-comm's shared-memory transport does for a large message without its protocol, so
 * its time per message is the least such a transport can take on this machine; bench/collectives'
 * bcast of the same size, against it, is the library's own cost (docs/comm.md, issue 20).
 *
 * <p>Usage: {@code java bench/RingFloor.java [SIZES_BYTES] [MESSAGES] [RECORD_KIB] [RUNS]}
 * (defaults 524288,2097152; 10000; 64; 3). A ring of four records.
 */
public final class RingFloor {
    private static final int RECORDS = 4;
    /** A side's bound: it gives up when it has waited this long, or when the bench that started it is gone. */
    private static final int SIDE_SECONDS = 120;

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--side")) {
            side(Integer.parseInt(args[1]), Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]));
            return;
        }
        String sizes = args.length > 0 ? args[0] : "524288,2097152";
        int messages = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int recordKib = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String self = Path.of(System.getProperty("jdk.launcher.sourcefile", "bench/RingFloor.java")).toString();
        System.out.println("| bytes | record (KiB) | µs a message, each run | best |");
        System.out.println("|---:|---:|---|---:|");
        for (String s : sizes.split(",")) {
            int size = Integer.parseInt(s.strip());
            List<Double> times = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                Path ring = Files.createTempFile(Path.of("/dev/shm"), "ring-floor", "");
                try {
                    List<String> base = List.of(java, self, "--side");
                    Process writer = start(base, 0, ring, size, messages, recordKib);
                    Process reader = start(base, 1, ring, size, messages, recordKib);
                    try {
                        // a side that died leaves the other spinning: both are given a bound and ended
                        boolean ended = reader.waitFor(SIDE_SECONDS, TimeUnit.SECONDS) && writer.waitFor(5, TimeUnit.SECONDS);
                        String out = new String(reader.getInputStream().readAllBytes()).strip();
                        if (!ended || reader.exitValue() != 0 || writer.exitValue() != 0) {
                            throw new IllegalStateException("a side failed or took over " + SIDE_SECONDS + " s: " + out);
                        }
                        times.add(Double.parseDouble(out));
                    } finally {
                        writer.destroyForcibly();
                        reader.destroyForcibly();
                    }
                } finally {
                    Files.deleteIfExists(ring);
                }
            }
            StringBuilder each = new StringBuilder();
            for (double t : times) {
                each.append(each.isEmpty() ? "" : " / ").append(String.format("%.1f", t));
            }
            System.out.printf("| %d | %d | %s | %.1f |%n", size, recordKib, each, times.stream().mapToDouble(d -> d).min().orElse(0));
        }
    }

    private static Process start(List<String> base, int role, Path ring, int size, int messages, int recordKib) throws Exception {
        List<String> cmd = new ArrayList<>(base);
        cmd.addAll(List.of(Integer.toString(role), ring.toString(), Integer.toString(size), Integer.toString(messages),
                Integer.toString(recordKib)));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** A side's spin, which ends the side when its bench is gone (killed, Ctrl-C) or its bound is past. */
    private static final class Waiting {
        private final ProcessHandle bench;
        private final long deadline;
        private int spins;

        Waiting(ProcessHandle bench, long deadline) {
            this.bench = bench;
            this.deadline = deadline;
        }

        void spin() {
            Thread.onSpinWait();
            if ((++spins & 0xFFFF) == 0) {
                check();
            }
        }

        /** Also between messages: two sides that keep each other going never spin long. */
        void check() {
            // the bench is gone once this side is no longer its child (a killed bench may linger as a zombie)
            if (bench == null || ProcessHandle.current().parent().map(p -> p.pid() != bench.pid()).orElse(true)
                    || System.nanoTime() > deadline) {
                System.err.println("ring-floor: a side gave up (its bench is gone, or the run took over " + SIDE_SECONDS + " s)");
                System.exit(3);
            }
        }
    }

    /** One side: role 0 writes the records, role 1 reads them and prints µs a message over the second half. */
    private static void side(int role, Path file, int size, int messages, int recordKib) throws Exception {
        long record = recordKib * 1024L;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofShared()) {
            MemorySegment ring = ch.map(FileChannel.MapMode.READ_WRITE, 0, RECORDS * record + RECORDS * 64L, arena);
            VarHandle flag = ValueLayout.JAVA_LONG.varHandle();
            MemorySegment heap = MemorySegment.ofArray(new double[size / 8]);
            long seq = 0;
            long t0 = 0;
            Waiting waiting = new Waiting(ProcessHandle.current().parent().orElse(null),
                    System.nanoTime() + SIDE_SECONDS * 1_000_000_000L);
            for (int m = 0; m < messages; m++) {
                if ((m & 63) == 0) {
                    waiting.check();
                }
                if (m == messages / 2) {
                    t0 = System.nanoTime();
                }
                for (long off = 0; off < size; off += record, seq++) {
                    int slot = (int) (seq % RECORDS);
                    long at = RECORDS * record + slot * 64L;
                    long n = Math.min(record, size - off);
                    if (role == 0) {
                        while ((long) flag.getAcquire(ring, at) != 0) {
                            waiting.spin();
                        }
                        MemorySegment.copy(heap, off, ring, slot * record, n);
                        flag.setRelease(ring, at, 1L);
                    } else {
                        while ((long) flag.getAcquire(ring, at) != 1) {
                            waiting.spin();
                        }
                        MemorySegment.copy(ring, slot * record, heap, off, n);
                        flag.setRelease(ring, at, 0L);
                    }
                }
            }
            if (role == 1) {
                System.out.printf("%.2f%n", (System.nanoTime() - t0) / 1e3 / (messages - messages / 2));
            }
        }
    }
}
