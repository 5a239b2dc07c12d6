package org.banyan.cli.tasks;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.cli.options.UsageException;
import org.banyan.core.pilot.TaskDependency;
import org.banyan.pilot.Staging;
import org.banyan.pilot.TaskDescription;

/**
 * A task file: one JSON object per line (JSON Lines), with the field names of RADICAL-Pilot's
 * task description in snake_case; blank lines and {@code #} comments are skipped. Every line is
 * checked before any task starts; a bad one is one line naming the file, the line and the field.
 */
final class TaskFile {
    static final Set<String> FIELDS = Set.of("uid", "executable", "arguments", "environment", "sandbox", "stdout", "stderr", "stdin",
            "pre_exec", "post_exec", "ranks", "cores_per_rank", "gpus_per_rank", "priority", "timeout", "restartable",
            "tags", "mode", "input_staging", "output_staging", "stage_on_error", "name", "dependencies", "workdir", "shell");
    private static final Set<String> TAGS = Set.of("colocate", "exclusive");
    /** RADICAL-Pilot's action names, as its constants spell them ("Copy") or in lower case. */
    private static final Set<String> ACTIONS = Set.of("copy", "link", "move", "transfer");
    /** How many distinct programs a file's tasks share strings for (a file of all different ones gains nothing). */
    private static final int MAX_EXECUTABLES = 1024;
    /** Comments allowed; a key given twice refused (it silently took the last value). */
    private static final ObjectMapper JSON = org.banyan.cli.options.StrictJson.withComments();

    private TaskFile() {}

    /** A line of the file, for messages; its text is made only for one. */
    private record Where(String file, long line) {
        @Override
        public String toString() {
            return file + ":" + line;
        }
    }

    /**
     * The file's tasks, in order, every line checked ({@link Tasks} makes them). One parser reads
     * the whole file and each line's object becomes a tree in turn: a parser and a string per
     * line made 1.4 KB of garbage a line, and a 100,000-line bag's parse brought a young
     * collection into its first tenth of a second.
     */
    static Tasks read(Path file) throws UsageException {
        String shown = org.banyan.pmix.RawPaths.shown(file);
        try (InputStream in = Files.newInputStream(file)) {
            long limit = maxBytes();
            if (Files.isRegularFile(file) && Files.size(file) > limit) {
                throw tooLarge(shown, limit);
            }
            return read(in, shown, limit);
        } catch (NoSuchFileException e) {
            throw new UsageException("--tasks " + org.banyan.pmix.RawPaths.shown(file) + ": no such file");
        } catch (IOException e) {
            throw new UsageException("--tasks " + org.banyan.pmix.RawPaths.shown(file) + ": " + e.getMessage());
        }
    }

    /** As {@link #read(Path)}, from a stream ({@code --tasks -}: standard input); {@code file} names it in messages. */
    static Tasks read(InputStream in, String file) throws UsageException {
        return read(in, file, maxBytes());
    }

    /**
     * The most bytes a task file may hold: its bytes stay in memory until its tasks are handed
     * over. Without a bound, endless input ({@code yes ... | banyan submit --tasks -}) grew the
     * command to 2 GB in six seconds and ended it on an OutOfMemoryError's stack trace. (Checked
     * as it is read by {@link org.banyan.cli.options.InputFiles#readText}, but not read with
     * {@code InputFiles.text}, which gives a pipe 10 s: a generator feeding a bag may take longer.)
     */
    static long maxBytes() {
        return org.banyan.cli.options.InputFiles.heapBound();
    }

    private static UsageException tooLarge(String file, long limit) {
        return new UsageException("--tasks " + file + ": more than " + (limit >> 20)
                + " MiB of tasks (a quarter of this command's memory): split them over several submits");
    }

    static Tasks read(InputStream in, String file, long limit) throws UsageException {
        byte[] bytes;
        try {
            // checked as it comes: --tasks /dev/zero is refused at its first NUL, not after 1.4 GiB of zeros
            bytes = org.banyan.cli.options.InputFiles.readText(in, "--tasks " + file, Math.min(Integer.MAX_VALUE - 16, limit + 1));
        } catch (IOException e) {
            throw new UsageException("--tasks " + file + ": " + e.getMessage());
        }
        if (bytes.length > limit) {
            throw tooLarge(file, limit);
        }
        Map<String, Long> uidLines = new java.util.HashMap<>(); // the uids given, and their lines
        Map<String, String> executables = new java.util.HashMap<>(); // one string per program, see entry()
        int[] starts = new int[1024];
        int[] ends = new int[1024];
        int count = 0;
        int priority = 0;
        boolean onePriority = true;
        boolean outputStaging = false;
        Set<Integer> dependencyIds = new java.util.TreeSet<>();
        try (JsonParser p = JSON.createParser(bytes)) {
            long ended = 0; // the line the last task ended on
            while (true) {
                long line = 0;
                try {
                    if (p.nextToken() == null) {
                        break;
                    }
                    line = p.currentTokenLocation().getLineNr();
                    int start = (int) p.currentTokenLocation().getByteOffset();
                    Where where = new Where(file, line);
                    if (line == ended) {
                        throw new UsageException(where + ": more than one JSON value on the line (one task per line)");
                    }
                    JsonNode node = p.readValueAsTree();
                    ended = p.currentLocation().getLineNr();
                    if (ended != line) {
                        throw new UsageException(where + ": a task must be on one line");
                    }
                    TaskDescription d = entry(node, where, executables);
                    if (d.uid() != null) {
                        Long first = uidLines.putIfAbsent(d.uid(), line);
                        if (first != null) {
                            throw new UsageException(where + ": uid '" + d.uid() + "' is line " + first
                                    + "'s already (each task needs its own: it names the task's sandbox)");
                        }
                    }
                    if (count == starts.length) {
                        starts = java.util.Arrays.copyOf(starts, 2 * count);
                        ends = java.util.Arrays.copyOf(ends, 2 * count);
                    }
                    starts[count] = start;
                    ends[count] = (int) p.currentLocation().getByteOffset();
                    onePriority &= count == 0 || d.priority() == priority;
                    priority = d.priority();
                    outputStaging |= d.hasOutputStaging();
                    if (!d.dependencies().isEmpty()) {
                        dependencyIds.addAll(TaskDependency.ids(d.dependencies()));
                    }
                    count++;
                } catch (JsonProcessingException e) {
                    // an object that does not end on its line is named by the line it began on
                    long at = line > 0 ? line : e.getLocation() != null ? e.getLocation().getLineNr() : 0;
                    String twice = org.banyan.cli.options.StrictJson.duplicatedKey(e);
                    if (twice != null) {
                        throw new UsageException(new Where(file, at) + ": field '" + twice + "' is given twice");
                    }
                    throw new UsageException(new Where(file, at) + ": not a JSON object (" + e.getOriginalMessage() + ")");
                }
            }
        } catch (IOException e) {
            throw new UsageException("--tasks " + file + ": " + e.getMessage());
        }
        if (count == 0) {
            throw new UsageException("--tasks " + file + ": no task in the file");
        }
        return new Tasks(file, bytes, java.util.Arrays.copyOf(starts, count), java.util.Arrays.copyOf(ends, count), executables,
                onePriority, outputStaging, dependencyIds);
    }

    /**
     * A task file's tasks, every line checked, each made when it is asked for: from the file's
     * bytes again, as the bag hands the tasks over 4,096 at a time. Made all at once, a
     * 100,000-line bag's descriptions (some 10 MB) were copied by the DVM's first young
     * collection in the bag's first 0.2 s; made as they go, they are copied a slice at a time.
     * A description is made anew at each {@link #get}: take each once.
     */
    static final class Tasks extends java.util.AbstractList<TaskDescription> implements java.util.RandomAccess, BagTasks {
        private final String file;
        private final byte[] bytes;
        private final int[] starts;
        private final int[] ends;
        private final Map<String, String> executables;
        private final boolean onePriority;
        private final boolean outputStaging;
        private final Set<Integer> dependencyIds;
        private Map<String, String> defaults = Map.of();
        /** {@code banyan submit --dependency}'s, added to each task's own. */
        private List<TaskDependency> dependencies = List.of();

        private Tasks(String file, byte[] bytes, int[] starts, int[] ends, Map<String, String> executables,
                      boolean onePriority, boolean outputStaging, Set<Integer> dependencyIds) {
            this.dependencyIds = dependencyIds;
            this.file = file;
            this.bytes = bytes;
            this.starts = starts;
            this.ends = ends;
            this.executables = executables;
            this.onePriority = onePriority;
            this.outputStaging = outputStaging;
        }

        @Override
        public TaskDescription get(int i) {
            java.util.Objects.checkIndex(i, starts.length);
            try {
                TaskDescription d = entry(JSON.readTree(bytes, starts[i], ends[i] - starts[i]), new Where(file, 0), executables);
                if (!dependencies.isEmpty()) {
                    List<TaskDependency> all = new ArrayList<>(d.dependencies());
                    all.addAll(dependencies);
                    d.dependencies(all);
                }
                return defaults.isEmpty() ? d : d.environmentDefaults(defaults);
            } catch (IOException | UsageException e) { // the same bytes were read whole before
                throw new IllegalStateException("task " + i + " of " + file + ": " + e.getMessage(), e);
            }
        }

        @Override
        public int size() {
            return starts.length;
        }

        @Override
        public boolean onePriority() {
            return onePriority;
        }

        /** Whether some task asks for output staging. */
        boolean anyOutputStaging() {
            return outputStaging;
        }

        /** {@code banyan submit -x}'s variables, given to every task that does not set them itself. */
        void environmentDefaults(Map<String, String> variables) {
            defaults = Map.copyOf(variables);
        }

        /** {@code banyan submit --dependency}'s, which every task waits for besides its own. */
        void dependencies(List<TaskDependency> more) {
            dependencies = List.copyOf(more);
            dependencyIds.addAll(TaskDependency.ids(more));
        }

        @Override
        public Set<Integer> dependencyIds() {
            return dependencyIds;
        }
    }

    /**
     * @param executables the programs named so far, each once: a bag's tasks mostly run the same
     *                    few, and a string per line was a third of what a 100,000-line bag's
     *                    descriptions kept alive (5.6 of 16 MB), copied by the DVM's first young
     *                    collection in the bag's first 0.2 s
     */
    private static TaskDescription entry(JsonNode n, Where where, Map<String, String> executables) throws UsageException {
        if (n == null || !n.isObject()) {
            throw new UsageException(where + ": not a JSON object");
        }
        onlyKnown(n, FIELDS, where, "field", "");
        TaskDescription d = new TaskDescription();
        d.uid(text(n, "uid", where, null)).name(text(n, "name", where, null));
        String executable = text(n, "executable", where, null);
        if (executable == null) {
            throw new UsageException(where + ": field 'executable' is missing");
        }
        if (executable.isBlank()) {
            throw new UsageException(where + ": field 'executable' is empty");
        }
        String known = executables.get(executable);
        if (known != null) {
            executable = known;
        } else if (executables.size() < MAX_EXECUTABLES) {
            executables.put(executable, executable);
        }
        d.executable(executable);
        d.sandbox(text(n, "sandbox", where, null)).workdir(text(n, "workdir", where, null));
        String mode = text(n, "mode", where, "executable");
        if (!List.of("executable", "mpi").contains(mode)) {
            throw new UsageException(where + ": field 'mode' must be 'executable' or 'mpi'" + (mode.equals("function")
                    ? " (function tasks run through the Java Pilot API)" : "") + ", got '" + mode + "'");
        }
        d.mode(mode.equals("mpi") ? TaskDescription.Mode.MPI : TaskDescription.Mode.EXECUTABLE);
        JsonNode tags = n.get("tags");
        if (tags != null) {
            if (!tags.isObject()) {
                throw new UsageException(where + ": field 'tags' must be an object like {\"colocate\": \"x\", \"exclusive\": true}");
            }
            onlyKnown(tags, TAGS, where, "tag", " in field 'tags'"); // a misspelt tag was dropped without a word
            d.colocate(text(tags, "colocate", where, null));
            d.exclusive(bool(tags, "exclusive", where));
        }
        d.ranks(positive(n, "ranks", where, 1)).coresPerRank(positive(n, "cores_per_rank", where, 1))
                .gpusPerRank(nonNegative(n, "gpus_per_rank", where)).priority(nonNegative(n, "priority", where))
                .timeout(number(n, "timeout", where)).restartable(bool(n, "restartable", where))
                .arguments(strings(n, "arguments", where)).stdout(text(n, "stdout", where, null))
                .stderr(text(n, "stderr", where, null)).stdin(text(n, "stdin", where, null))
                .preExec(strings(n, "pre_exec", where).toArray(String[]::new))
                .postExec(strings(n, "post_exec", where).toArray(String[]::new))
                .inputStaging(staging(n, "input_staging", where).toArray(Staging[]::new))
                .outputStaging(staging(n, "output_staging", where).toArray(Staging[]::new))
                .stageOnError(bool(n, "stage_on_error", where)).shell(bool(n, "shell", where));
        for (Map.Entry<String, String> e : environment(n, where).entrySet()) {
            d.environment(e.getKey(), e.getValue());
        }
        String dependencies = text(n, "dependencies", where, null);
        if (dependencies != null) {
            try {
                d.dependencies(dependencies);
            } catch (IllegalArgumentException e) {
                throw new UsageException(where + ": field 'dependencies': " + e.getMessage());
            }
        }
        try {
            d.check(); // what the Pilot API refuses, named here with its line
        } catch (IllegalArgumentException e) {
            throw new UsageException(where + ": " + e.getMessage());
        }
        return d;
    }

    /** Refuses a key of {@code n} not in {@code valid}: "unknown KIND 'key'IN (valid: ...)". */
    private static void onlyKnown(JsonNode n, Set<String> valid, Where where, String kind, String in) throws UsageException {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!valid.contains(f)) {
                throw new UsageException(where + ": unknown " + kind + " '" + f + "'" + in + " (valid: "
                        + String.join(", ", valid.stream().sorted().toList()) + ")");
            }
        }
    }

    private static String text(JsonNode n, String f, Where where, String otherwise) throws UsageException {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            return otherwise;
        }
        if (!v.isTextual()) {
            throw new UsageException(where + ": field '" + f + "' must be a string");
        }
        return v.asText();
    }

    private static List<String> strings(JsonNode n, String f, Where where) throws UsageException {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (!v.isArray()) {
            throw new UsageException(where + ": field '" + f + "' must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw new UsageException(where + ": field '" + f + "' must be a list of strings"
                        + (e.isValueNode() ? ": " + e + " is not one (write \"" + e.asText() + "\")" : ""));
            }
            out.add(e.asText());
        }
        return out;
    }

    private static Map<String, String> environment(JsonNode n, Where where) throws UsageException {
        JsonNode v = n.get("environment");
        if (v == null || v.isNull()) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (!v.isObject()) {
            throw new UsageException(where + ": field 'environment' must be an object of strings");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new UsageException(where + ": field 'environment' must be an object of strings"
                        + (e.getValue().isValueNode() ? ": '" + e.getKey() + "' is " + e.getValue() + " (write \""
                        + e.getValue().asText() + "\")" : ""));
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static int positive(JsonNode n, String f, Where where, int otherwise) throws UsageException {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            return otherwise;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 1) {
            throw new UsageException(where + ": field '" + f + "' must be a positive integer");
        }
        return v.asInt();
    }

    private static int nonNegative(JsonNode n, String f, Where where) throws UsageException {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 0) {
            throw new UsageException(where + ": field '" + f + "' must be a non-negative integer");
        }
        return v.asInt();
    }

    private static double number(JsonNode n, String f, Where where) throws UsageException {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isNumber() || !(v.asDouble() >= 0) || Double.isInfinite(v.asDouble())) {
            throw new UsageException(where + ": field '" + f + "' must be a non-negative number of seconds");
        }
        return v.asDouble();
    }

    private static boolean bool(JsonNode n, String f, Where where) throws UsageException {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new UsageException(where + ": field '" + f + "' must be true or false");
        }
        return v.asBoolean();
    }

    /** A list of {"source": ..., "target": ..., "action": "copy|link|move"}, or of plain paths (copied by name). */
    private static List<Staging> staging(JsonNode n, String f, Where where) throws UsageException {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (!v.isArray()) {
            throw new UsageException(where + ": field '" + f + "' must be a list");
        }
        List<Staging> out = new ArrayList<>();
        for (JsonNode e : v) {
            try {
                if (e.isTextual()) {
                    out.add(new Staging(e.asText(), fileName(e.asText(), f, where), Staging.Action.COPY));
                    continue;
                }
                String source = e.isObject() ? text(e, "source", where, null) : null;
                if (source == null) {
                    throw new UsageException(where + ": field '" + f + "' needs a 'source' in each entry");
                }
                String given = text(e, "action", where, "copy");
                String action = given.toLowerCase(java.util.Locale.ROOT);
                if (!ACTIONS.contains(action)) {
                    throw new UsageException(where + ": field '" + f + "': action '" + given + "' is not copy, link, move or transfer");
                }
                String target = text(e, "target", where, null);
                out.add(new Staging(source, target != null ? target : fileName(source, f, where),
                        Staging.Action.valueOf(action.toUpperCase(java.util.Locale.ROOT))));
            } catch (IllegalArgumentException bad) { // Staging's own checks
                throw new UsageException(where + ": field '" + f + "': " + bad.getMessage());
            }
        }
        return out;
    }

    /** The name a staged path keeps when no target is given. */
    private static String fileName(String path, String f, Where where) throws UsageException {
        Path name;
        try {
            name = Path.of(path).getFileName();
        } catch (java.nio.file.InvalidPathException e) {
            throw new UsageException(where + ": field '" + f + "': '" + path.replace("\0", "\\0") + "' is not a path");
        }
        if (name == null || path.isBlank()) {
            throw new UsageException(where + ": field '" + f + "': '" + path + "' has no file name to keep; give {\"source\": ..., "
                    + "\"target\": ...}");
        }
        return name.toString();
    }
}
