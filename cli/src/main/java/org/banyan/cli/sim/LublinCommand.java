package org.banyan.cli.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.rm.workload.lublin.JobClass;
import org.banyan.rm.workload.lublin.LublinFeitelson;

/**
 * {@code banyan sim lublin}: jobs of the Lublin–Feitelson model in the Standard Workload Format,
 * as the authors' program writes them (the same lines for the same seed on 128 nodes).
 */
final class LublinCommand {
    /** What the options set. */
    static final class Arguments {
        long seed = 1;
        int jobs = 1000;
        int nodes = 128;
        double load = 1;
        String output;
    }

    static final OptionTable<Arguments> OPTIONS = new OptionTable<Arguments>()
            .value("Options", List.of("--seed"), List.of(), "S", "srand48's seed (default 1)", (a, v) -> {
                try {
                    a.seed = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw new UsageException("--seed '" + v + "' is not a whole number");
                }
            })
            .value("Options", List.of("--jobs"), List.of(), "N", "jobs (default 1000, the program's)",
                    (a, v) -> a.jobs = HostListParser.positive(v, "--jobs"))
            .value("Options", List.of("--nodes"), List.of(), "P", "the machine's nodes (default 128, the model's); other sizes\n"
                    + "move the largest job sizes by log2(P / 128), as the authors advise", (a, v) -> a.nodes = HostListParser.positive(v, "--nodes"))
            .value("Options", List.of("--load"), List.of(), "F", "arrivals F times as dense (arrival times divided by F; default 1)",
                    (a, v) -> a.load = WorkloadCommand.positive(v, "--load"))
            .value("Options", List.of("--output"), List.of(), "FILE", "write there instead of standard output",
                    (a, v) -> a.output = v);

    static final String HELP = """
            Usage: banyan sim lublin [--seed S] [--jobs N] [--nodes P] [--load F] [--output FILE]

            Writes jobs of the Lublin-Feitelson model of rigid parallel jobs (J. Parallel Distrib.
            Comput. 63(11), 2003) in the Standard Workload Format: arrivals with the daily cycle,
            batch and interactive jobs, sizes and run times. With the defaults it writes, line for
            line, what the authors' program m_lublin99.c writes after srand48(S).

            """ + OPTIONS.help();

    private LublinCommand() {}

    static int run(List<String> args, Path cwd) throws UsageException {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return 0;
        }
        Arguments a = new Arguments();
        OptionParser.parse(OPTIONS, a, args, "banyan sim lublin --help");
        String text = swf(a.seed, a.jobs, a.nodes, a.load);
        if (a.output == null) {
            System.out.print(text);
            return 0;
        }
        try {
            Files.writeString(cwd.resolve(a.output), text);
            return 0;
        } catch (IOException e) {
            System.err.println("banyan sim lublin: cannot write " + a.output + ": " + e.getMessage());
            return 1;
        }
    }

    /** The model's {@code jobs} jobs for a machine of {@code nodes}, arrivals divided by {@code load}, as SWF. */
    static String swf(long seed, int jobs, int nodes, double load) {
        LublinFeitelson model = nodes == 128 ? new LublinFeitelson(seed)
                : new LublinFeitelson(seed, JobClass.BATCH.onNodes(nodes), JobClass.INTERACTIVE.onNodes(nodes));
        List<LublinFeitelson.Job> out = model.jobs(jobs);
        if (load != 1) {
            List<LublinFeitelson.Job> scaled = new ArrayList<>(out.size());
            for (LublinFeitelson.Job j : out) {
                scaled.add(new LublinFeitelson.Job(j.number(), Math.round(j.arrival() / load), j.runtime(), j.nodes(), j.batch()));
            }
            out = scaled;
        }
        return LublinFeitelson.swf(out, nodes);
    }
}
