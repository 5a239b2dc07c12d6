package org.banyan.pilot;

import java.nio.file.Path;
import java.util.List;

/**
 * What a pilot is: where it runs and how big it is.
 *
 * <ul>
 * <li>{@code local}: this machine, {@code cores} cores (default: all);
 * <li>{@code ssh}: {@code hosts} (as {@code NAME:SLOTS}), daemons started over ssh along a tree;
 * <li>{@code dvm}: an existing DVM, such as one started with {@code banyan dvm start} inside a
 *     Slurm allocation ({@code dvm} its URI file).
 * </ul>
 * {@code runtimeMinutes} ends the pilot (DONE) after that long; 0 for until canceled.
 */
public record PilotDescription(String resource, int cores, List<String> hosts, Path dvm, double runtimeMinutes) {
    public PilotDescription {
        hosts = List.copyOf(hosts);
        if (!List.of("local", "ssh", "dvm").contains(resource)) {
            throw new IllegalArgumentException("resource '" + resource + "' is not local, ssh or dvm");
        }
    }

    public static PilotDescription local(int cores) {
        return new PilotDescription("local", cores, List.of(), null, 0);
    }

    public static PilotDescription ssh(List<String> hosts) {
        return new PilotDescription("ssh", 0, hosts, null, 0);
    }

    public static PilotDescription dvm(Path uriFile) {
        return new PilotDescription("dvm", 0, List.of(), uriFile, 0);
    }

    public PilotDescription runtime(double minutes) {
        return new PilotDescription(resource, cores, hosts, dvm, minutes);
    }
}
