package org.banyan.cli.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.banyan.cli.options.UsageException;
import org.banyan.rm.workload.AppModel;
import org.banyan.rm.workload.WorkloadSetup;

/**
 * A workload set-up's JSON form ({@code banyan sim workload --setup FILE}; {@code --json}
 * prints the one a run used). Strict: an unknown key, a missing one or a wrong type is refused by
 * name. Layout:
 * <pre>
 * {"name": "seed-table1", "nodes": 64, "jobs": 50, "seed": 1,
 *  "arrivals": {"poisson_mean_s": 10} | {"lublin_load": 1},
 *  "apps": [{"name": "cg", "weight": 1, "iterations": 10000, "min": 2, "max": 32, "preferred": 8,
 *            "serial": 0, "one_node_s": 18240 | "run_s_at_max": 570, "comm_s_per_log2": 0,
 *            "data_gib": 0, "start_s": 0, "resize_s": 0.42, "check_period_s": 15}, ...]}
 * </pre>
 * In an application only name, iterations, min, max and one_node_s (or run_s_at_max) are
 * required; the rest default to 0 (weight to 1).
 */
final class WorkloadSetupJson {
    /** Strict, as a task file is read: a key given twice, or anything after the object, is refused, not silently taken. */
    private static final ObjectMapper JSON = org.banyan.cli.options.StrictJson.oneValue();
    private static final Set<String> TOP = Set.of("name", "nodes", "jobs", "seed", "arrivals", "apps");
    private static final Set<String> APP = Set.of("name", "weight", "iterations", "min", "max", "preferred", "serial",
            "one_node_s", "run_s_at_max", "comm_s_per_log2", "data_gib", "start_s", "resize_s", "check_period_s");
    private static final Set<String> ARRIVALS = Set.of("poisson_mean_s", "lublin_load");

    private WorkloadSetupJson() {}

    static ObjectNode toJson(WorkloadSetup s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", s.name()).put("nodes", s.nodes()).put("jobs", s.jobs()).put("seed", s.seed());
        ObjectNode arr = o.putObject("arrivals");
        switch (s.arrivals()) {
            case WorkloadSetup.Arrivals.Poisson p -> arr.put("poisson_mean_s", p.meanSeconds());
            case WorkloadSetup.Arrivals.Lublin l -> arr.put("lublin_load", l.load());
        }
        ArrayNode apps = o.putArray("apps");
        for (WorkloadSetup.Share sh : s.apps()) {
            AppModel a = sh.app();
            apps.addObject().put("name", a.name()).put("weight", sh.weight()).put("iterations", a.iterations())
                    .put("min", a.minNodes()).put("max", a.maxNodes()).put("preferred", a.preferredNodes())
                    .put("serial", a.serialFraction()).put("one_node_s", a.oneNodeSeconds())
                    .put("comm_s_per_log2", a.commSecondsPerLog2()).put("data_gib", a.dataGiB())
                    .put("start_s", a.startSeconds()).put("resize_s", a.resizeFixedSeconds())
                    .put("check_period_s", a.checkPeriodSeconds());
        }
        return o;
    }

    static WorkloadSetup read(String text, String origin) throws UsageException {
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            String twice = org.banyan.cli.options.StrictJson.duplicatedKey(e);
            if (twice != null) {
                throw new UsageException(origin + ": '" + twice + "' is given twice");
            }
            if (org.banyan.cli.options.StrictJson.moreAfterTheValue(e)) {
                throw new UsageException(origin + ": more than one JSON value (a set-up is one object)");
            }
            throw new UsageException(origin + ": not JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw new UsageException(origin + ": a set-up is one JSON object");
        }
        known(n, TOP, origin);
        JsonNode arrivals = required(n, "arrivals", origin);
        known(arrivals, ARRIVALS, origin + ": arrivals");
        if (arrivals.size() != 1) {
            throw new UsageException(origin + ": arrivals holds one of poisson_mean_s or lublin_load");
        }
        WorkloadSetup.Arrivals how = arrivals.has("poisson_mean_s")
                ? new WorkloadSetup.Arrivals.Poisson(positive(arrivals, "poisson_mean_s", origin))
                : new WorkloadSetup.Arrivals.Lublin(positive(arrivals, "lublin_load", origin));
        JsonNode apps = required(n, "apps", origin);
        if (!apps.isArray() || apps.isEmpty()) {
            throw new UsageException(origin + ": apps is a list of at least one application");
        }
        List<WorkloadSetup.Share> mix = new ArrayList<>();
        for (JsonNode a : apps) {
            String where = origin + ": app " + (mix.size() + 1);
            if (!a.isObject()) {
                throw new UsageException(where + " is not an object");
            }
            known(a, APP, where);
            JsonNode nameNode = required(a, "name", where);
            if (!nameNode.isTextual() || nameNode.asText().isBlank() || nameNode.asText().matches(".*\\s.*")) {
                throw new UsageException(where + ": name is a word");
            }
            String name = nameNode.asText();
            int min = whole(a, "min", where, null);
            int max = whole(a, "max", where, null);
            AppModel m = new AppModel(name, number(a, "serial", where, 0), a.has("one_node_s") ? positive(a, "one_node_s", where) : 1,
                    number(a, "comm_s_per_log2", where, 0), whole(a, "iterations", where, null), min, max,
                    whole(a, "preferred", where, 0), number(a, "data_gib", where, 0), number(a, "start_s", where, 0),
                    number(a, "resize_s", where, 0), number(a, "check_period_s", where, 0));
            if (a.has("one_node_s") == a.has("run_s_at_max")) {
                throw new UsageException(where + ": give one of one_node_s and run_s_at_max");
            }
            if (a.has("run_s_at_max")) {
                m = m.runningFor(max, positive(a, "run_s_at_max", where));
            }
            mix.add(new WorkloadSetup.Share(m, a.has("weight") ? positive(a, "weight", where) : 1));
        }
        try {
            return new WorkloadSetup(n.has("name") ? n.get("name").asText() : origin, whole(n, "nodes", origin, null),
                    whole(n, "jobs", origin, null), n.has("seed") ? whole(n, "seed", origin, null) : 1, mix, how);
        } catch (IllegalArgumentException e) {
            throw new UsageException(origin + ": " + e.getMessage());
        }
    }

    private static void known(JsonNode n, Set<String> keys, String where) throws UsageException {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!keys.contains(k)) {
                throw new UsageException(where + ": unknown key '" + k + "' (valid: " + String.join(", ", new java.util.TreeSet<>(keys)) + ")");
            }
        }
    }

    private static JsonNode required(JsonNode n, String key, String where) throws UsageException {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            throw new UsageException(where + ": '" + key + "' is missing");
        }
        return v;
    }

    private static double number(JsonNode n, String key, String where, double dflt) throws UsageException {
        JsonNode v = n.get(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
            throw new UsageException(where + ": '" + key + "' is a number");
        }
        return v.asDouble();
    }

    private static double positive(JsonNode n, String key, String where) throws UsageException {
        double v = number(n, key, where, Double.NaN);
        if (!(v > 0)) {
            throw new UsageException(where + ": '" + key + "' is a positive number");
        }
        return v;
    }

    private static int whole(JsonNode n, String key, String where, Integer dflt) throws UsageException {
        JsonNode v = n.get(key);
        if (v == null) {
            if (dflt == null) {
                throw new UsageException(where + ": '" + key + "' is missing");
            }
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new UsageException(where + ": '" + key + "' is a whole number");
        }
        return v.asInt();
    }
}
