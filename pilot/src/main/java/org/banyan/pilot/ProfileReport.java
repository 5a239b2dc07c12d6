package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.banyan.core.pilot.TaskState;

/**
 * What a session's profile says, computed from it alone: TTX (first task starting to execute
 * → last one done executing), the pilots' core-time split into executing (tasks' processes
 * running), overhead (cores held for a task outside its execution: placed and being started, or
 * its end on its way back) and idle, throughput over time, peak concurrency, and the time series
 * the plots draw. A task executes from its process's creation to its end as its daemon saw them
 * ({@code exec_start}, {@code exec_stop}; where a profile lacks them, AGENT_EXECUTING →
 * AGENT_STAGING_OUTPUT_PENDING); it holds its cores from AGENT_EXECUTING_PENDING to
 * AGENT_STAGING_OUTPUT, and the difference is overhead. TTX and the concurrency plots use the
 * agent's states.
 */
public record ProfileReport(int tasks, int done, int failed, int canceled, int cores, double ttx, double executing,
                            double overhead, double idle, int peakConcurrency, double[] time, double[] concurrency,
                            Map<TaskState, double[]> inState, double[] throughput, double[] throughputByTenth,
                            double[] coresBusy) {
    /** How many parts of TTX {@link #throughputByTenth} has. */
    public static final int TENTHS = 10;

    /** Reads {@code dir/banyan.prof}; the series are sampled at {@code samples} points. */
    public static ProfileReport of(Path dir, int samples) throws IOException {
        Path file = dir.resolve(Profile.FILE);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no profile at " + file);
        }
        Map<String, Map<String, Double>> states = new HashMap<>();
        Map<String, Integer> cores = new HashMap<>();
        int pilotCores = 0;
        try (java.io.BufferedReader in = Files.newBufferedReader(file)) { // a line at a time: a million tasks' profile is gigabytes
            int n = 0;
            for (String line; (line = in.readLine()) != null; n++) {
                pilotCores += line(file, n, line, states, cores);
            }
        } catch (java.nio.charset.CharacterCodingException e) { // found a buffer ahead of the line read: no line number
            throw new IOException(file + ": not text (not UTF-8): is this a profile?");
        }
        return compute(states, cores, pilotCores, samples);
    }

    /**
     * Whether {@code dir}'s profile ends in the middle of a line: written incompletely (a disk that
     * filled) or still being written (a running session). Its reader leaves that line out.
     */
    public static boolean endsMidLine(Path dir) throws IOException {
        try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(dir.resolve(Profile.FILE))) {
            long size = f.size();
            if (size == 0) {
                return false;
            }
            java.nio.ByteBuffer last = java.nio.ByteBuffer.allocate(1);
            f.read(last, size - 1);
            return last.get(0) != '\n';
        }
    }

    /** Line {@code n} (from 0) of the profile; returns the cores it adds to the pilots'. */
    private static int line(Path file, int n, String line, Map<String, Map<String, Double>> states, Map<String, Integer> cores)
            throws IOException {
        if (line.startsWith("#") || line.isBlank()) {
            return 0;
        }
        String[] f = line.split(",", 7);
        if (f.length < 6 || !(f[1].equals("state") || f[1].equals("exec_start") || f[1].equals("exec_stop"))) {
            return 0; // events this report does not use, as RADICAL-Pilot's profiles have many
        }
        double t;
        try {
            t = Double.parseDouble(f[0]);
        } catch (NumberFormatException e) {
            t = Double.NaN;
        }
        if (!Double.isFinite(t) || t < 0) { // NaN and Infinity parse, and would make every figure nonsense
            throw new IOException(file + ":" + (n + 1) + ": '" + f[0] + "' is not a time (seconds since the epoch)");
        }
        try {
            return take(f, t, states, cores);
        } catch (NumberFormatException e) {
            throw new IOException(file + ":" + (n + 1) + ": the cores in '" + f[6] + "' are not a number");
        }
    }

    /** One event of a task or a pilot; returns the cores it adds to the pilots'. */
    private static int take(String[] f, double t, Map<String, Map<String, Double>> states, Map<String, Integer> cores) {
        if (f[4].startsWith("pilot.")) {
            if (f[5].equals("PMGR_ACTIVE") && f.length > 6 && f[6].startsWith("cores=")) {
                return Integer.parseInt(f[6].substring(6).split(" ", 2)[0].strip()); // then what the warm-up did
            }
            return 0;
        }
        // exec_start/exec_stop (when the process really ran) are kept with the states, by event name.
        states.computeIfAbsent(f[4], k -> new HashMap<>()).putIfAbsent(f[1].equals("state") ? f[5] : f[1], t);
        if (f[5].equals("NEW") && f.length > 6 && f[6].startsWith("cores=")) {
            cores.put(f[4], Integer.parseInt(f[6].substring(6).strip()));
        }
        return 0;
    }

    static ProfileReport compute(Map<String, Map<String, Double>> states, Map<String, Integer> cores, int pilotCores,
                                 int samples) {
        int done = 0;
        int failed = 0;
        int canceled = 0;
        double first = Double.MAX_VALUE;
        double last = 0;
        double start = Double.MAX_VALUE;
        double end = 0;
        double executing = 0;
        double held = 0;
        List<double[]> execIntervals = new ArrayList<>();
        for (Map.Entry<String, Map<String, Double>> e : states.entrySet()) {
            Map<String, Double> s = e.getValue();
            int c = cores.getOrDefault(e.getKey(), 1);
            done += s.containsKey("DONE") ? 1 : 0;
            failed += s.containsKey("FAILED") ? 1 : 0;
            canceled += s.containsKey("CANCELED") ? 1 : 0;
            for (double t : s.values()) {
                start = Math.min(start, t);
                end = Math.max(end, t);
            }
            Double x0 = s.get("AGENT_EXECUTING");
            Double x1 = s.get("AGENT_STAGING_OUTPUT_PENDING");
            if (x1 == null) {
                x1 = firstOf(s, "FAILED", "CANCELED");
            }
            if (x0 != null && x1 != null) {
                first = Math.min(first, x0);
                last = Math.max(last, x1);
                Double r0 = s.get("exec_start");
                Double r1 = s.get("exec_stop");
                executing += (r0 != null && r1 != null ? Math.max(0, r1 - r0) : x1 - x0) * c;
                execIntervals.add(new double[] {x0, x1, c});
                Double h0 = s.getOrDefault("AGENT_EXECUTING_PENDING", x0);
                Double h1 = s.getOrDefault("AGENT_STAGING_OUTPUT", x1);
                held += (h1 - h0) * c;
            }
        }
        double ttx = last > first ? last - first : 0;
        double available = pilotCores * ttx;
        double overhead = Math.max(0, held - executing);
        double idle = Math.max(0, available - held);
        int n = Math.max(2, samples);
        double[] time = new double[n];
        double[] conc = new double[n];
        double[] throughput = new double[n];
        Map<TaskState, double[]> inState = new TreeMap<>();
        double span = Math.max(1e-6, end - start);
        for (int i = 0; i < n; i++) {
            time[i] = span * i / (n - 1);
        }
        double width = span / (n - 1);
        double[] busy = new double[n];
        for (double[] iv : execIntervals) {
            for (int i = 0; i < n; i++) {
                double t = start + time[i];
                if (iv[0] <= t && t < iv[1]) {
                    conc[i]++;
                }
            }
            int bin = (int) Math.min(n - 1, Math.floor((iv[1] - start) / span * (n - 1)));
            throughput[bin] += (n - 1) / span;
            // its cores, spread over the stretches it ran in, by how long it ran in each
            int from = (int) Math.max(0, Math.min(n - 2, Math.floor((iv[0] - start) / width)));
            int to = (int) Math.max(0, Math.min(n - 2, Math.floor((iv[1] - start) / width)));
            for (int b = from; b <= to; b++) {
                double b0 = start + b * width;
                double overlap = Math.min(iv[1], b0 + width) - Math.max(iv[0], b0);
                if (overlap > 0) {
                    busy[b] += iv[2] * overlap / width;
                }
            }
        }
        busy[n - 1] = busy[n - 2];
        for (TaskState st : List.of(TaskState.TMGR_SCHEDULING_PENDING, TaskState.AGENT_SCHEDULING, TaskState.AGENT_EXECUTING,
                TaskState.DONE, TaskState.FAILED)) {
            double[] count = new double[n];
            for (Map<String, Double> s : states.values()) {
                Double from = s.get(st.name());
                if (from == null) {
                    continue;
                }
                Double to = st.isFinal() ? null : nextAfter(s, st);
                for (int i = 0; i < n; i++) {
                    double t = start + time[i];
                    if (from <= t && (to == null || t < to)) {
                        count[i]++;
                    }
                }
            }
            inState.put(st, count);
        }
        // Tasks ended per second in each tenth of TTX: a rate that decays, or a slow start, shows here.
        double[] tenths = new double[TENTHS];
        if (ttx > 0) {
            for (double[] iv : execIntervals) {
                tenths[(int) Math.max(0, Math.min(TENTHS - 1, Math.floor((iv[1] - first) / ttx * TENTHS)))]++;
            }
            for (int i = 0; i < TENTHS; i++) {
                tenths[i] /= ttx / TENTHS;
            }
        }
        int peak = 0;
        execIntervals.sort((a, b) -> Double.compare(a[0], b[0]));
        List<double[]> events = new ArrayList<>();
        for (double[] iv : execIntervals) {
            events.add(new double[] {iv[0], 1});
            events.add(new double[] {iv[1], -1});
        }
        events.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
        int running = 0;
        for (double[] ev : events) {
            running += (int) ev[1];
            peak = Math.max(peak, running);
        }
        return new ProfileReport(states.size(), done, failed, canceled, pilotCores, ttx, executing, overhead, idle, peak,
                time, conc, inState, throughput, tenths, busy);
    }

    private static Double firstOf(Map<String, Double> s, String... names) {
        for (String n : names) {
            if (s.containsKey(n)) {
                return s.get(n);
            }
        }
        return null;
    }

    /** What ends each state the plot follows; a final state ends any of them. */
    private static final Map<TaskState, TaskState> ENDED_BY = Map.of(
            TaskState.TMGR_SCHEDULING_PENDING, TaskState.TMGR_SCHEDULING,
            TaskState.AGENT_SCHEDULING, TaskState.AGENT_EXECUTING_PENDING,
            TaskState.AGENT_EXECUTING, TaskState.AGENT_STAGING_OUTPUT_PENDING);

    /** When the task left {@code st}, or null if it has not. */
    private static Double nextAfter(Map<String, Double> s, TaskState st) {
        Double end = s.get(ENDED_BY.get(st).name());
        return end != null ? end : firstOf(s, "DONE", "FAILED", "CANCELED");
    }
}
