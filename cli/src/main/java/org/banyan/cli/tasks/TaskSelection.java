package org.banyan.cli.tasks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.UsageException;
import org.banyan.runtime.dvm.DvmClient;
import org.banyan.runtime.dvm.DvmFiles;

/**
 * What {@code banyan wait} and {@code banyan cancel} act on: a DVM ({@code --dvm FILE}, default
 * ~/.banyan/dvm.uri), task ids ({@link TaskIds}) or {@code --all}, and {@code --quiet}.
 */
record TaskSelection(DvmFiles dvm, List<Integer> ids, boolean all, boolean quiet, boolean help) {
    static TaskSelection parse(List<String> args, Map<String, String> environment, String command) throws UsageException {
        DvmFiles dvm = null;
        boolean all = false;
        boolean quiet = false;
        List<String> words = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--help", "-h" -> {
                    return new TaskSelection(null, List.of(), false, false, true);
                }
                case "--dvm" -> dvm = new DvmFiles(Path.of(OptionParser.value(args, i++, null, "--dvm")).toAbsolutePath());
                case "--all" -> all = true;
                case "--quiet" -> quiet = true;
                default -> {
                    if (a.startsWith("--")) {
                        throw new UsageException("unknown option '" + a + "' (see banyan " + command + " --help)");
                    }
                    words.add(a);
                }
            }
        }
        if (dvm == null) {
            dvm = DvmFiles.defaultFor(environment, java.nio.file.Path.of("").toAbsolutePath());
        }
        return new TaskSelection(dvm, TaskIds.parse(words), all, quiet, false);
    }

    /**
     * Follows the selected tasks on {@code client}; returns those the DVM knows, or null after
     * naming the unknown ones on stderr.
     */
    List<Integer> watch(DvmClient client, String command) throws java.io.IOException {
        List<Integer> known = client.watch(ids);
        if (known.size() < ids.size()) {
            List<Integer> unknown = new ArrayList<>(ids);
            unknown.removeAll(known);
            System.err.println("banyan " + command + ": no task " + TaskIds.format(unknown) + " in this DVM (it keeps what became "
                    + "of the last 100,000 tasks of submit --detach, and how its latest 4,194,304 tasks ended)");
            return null;
        }
        return known;
    }
}
