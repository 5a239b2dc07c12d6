package org.banyan.cli.run;

import java.util.Locale;
import java.util.Set;
import org.banyan.cli.options.UsageException;

/**
 * Open MPI's MCA parameters as {@code banyan run} takes them from mpirun's command lines: most go
 * to the ranks ({@code --mca btl self,vader}); those of mpirun's own frameworks are refused; one,
 * {@code rmaps_base_oversubscribe}, is mpirun's and banyan reads it.
 */
final class McaParameters {
    /**
     * The one mpirun parameter CI scripts set everywhere, often as {@code OMPI_MCA_...} in the
     * environment, to run more ranks than a runner has cores: it is {@code --oversubscribe}.
     */
    static final String OVERSUBSCRIBE = "rmaps_base_oversubscribe";

    /** Open MPI 4's run-time frameworks, of mpirun and its daemons (ORTE), not of the ranks. */
    private static final Set<String> MPIRUN_FRAMEWORKS = Set.of("plm", "ras", "rmaps", "odls", "orte",
            "routed", "errmgr", "state", "filem", "grpcomm", "iof", "rtc", "oob", "prte", "prrte");

    private McaParameters() {}

    /**
     * A parameter's name for {@code --mca}: one the ranks read. Those of the frameworks that
     * configure mpirun and its daemons (launch, allocation, mapping, routing, I/O forwarding),
     * which banyan replaces, would reach the ranks and change nothing: refused.
     */
    static String forRanks(String name) throws UsageException {
        if (!name.matches("[A-Za-z0-9_]+")) {
            throw new UsageException("--mca '" + name + "': not an Open MPI parameter name (--mca NAME VALUE, as --mca btl self,vader)");
        }
        String framework = name.contains("_") ? name.substring(0, name.indexOf('_')) : name;
        if (MPIRUN_FRAMEWORKS.contains(framework)) {
            throw new UsageException("--mca " + name + " configures Open MPI's mpirun and its daemons (" + framework
                    + "), which banyan replaces; see banyan run --help (--launch-agent, --map-by, --bind-to, --routing)");
        }
        return name;
    }

    /** A boolean as Open MPI reads one, given by {@code from}. */
    static boolean bool(String value, String from) throws UsageException {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes", "y", "t", "enabled" -> true;
            case "0", "false", "no", "n", "f", "disabled" -> false;
            default -> throw new UsageException(from + " '" + value + "': not a boolean (1, true, yes; 0, false, no)");
        };
    }
}
