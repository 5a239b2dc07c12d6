package org.banyan.cli.run;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.cli.options.UsageException;
import org.banyan.comm.profile.TrafficMatrices;
import org.banyan.place.CommMatrix;
import org.banyan.place.MatrixFormats;
import org.banyan.topo.HwlocXml;
import org.banyan.topo.SysfsTopology;
import org.banyan.topo.Topology;
import org.banyan.topo.TopologyFormats;

/** What {@code banyan place} and {@code banyan run --map-by treematch:} read: matrices and topologies. */
public final class PlacementInputs {
    private PlacementInputs() {}

    /**
     * A matrix: a directory of {@code .prof} files (or one), taking all bytes sent; a CSV of
     * {@code banyan monitor}; or a {@code .mat} file.
     */
    public static CommMatrix matrix(String spec, Path cwd, String option) throws UsageException {
        Path p = cwd.resolve(spec);
        if (!Files.exists(p)) {
            throw new UsageException(option + " '" + spec + "' does not exist");
        }
        try {
            if (Files.isDirectory(p) || p.toString().endsWith(".prof")) {
                return CommMatrix.of(TrafficMatrices.read(p).bytes(TrafficMatrices.Category.ALL));
            }
            return MatrixFormats.parse(org.banyan.cli.options.InputFiles.largeText(p, option), spec);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    /**
     * One host's topology (or a whole cluster's, when a synthetic description has a host level):
     * a file of hwloc XML ({@code lstopo --of xml}), a tleaf file, a synthetic description
     * ({@code socket:2 core:8}) in a file or inline; null or {@code local} reads this host's
     * {@code /sys}.
     */
    public static Topology topology(String spec, Path cwd, String option) throws UsageException {
        try {
            if (spec == null || spec.equals("local")) {
                return SysfsTopology.local();
            }
            Path p = cwd.resolve(spec);
            if (Files.isRegularFile(p)) {
                String text = org.banyan.cli.options.InputFiles.largeText(p, option);
                String head = text.stripLeading();
                if (head.startsWith("<")) {
                    return HwlocXml.parse(text);
                }
                if (head.startsWith("tleaf")) {
                    return TopologyFormats.tleaf(text);
                }
                return TopologyFormats.synthetic(text.strip());
            }
            if (spec.contains(":")) {
                return TopologyFormats.synthetic(spec);
            }
            throw new UsageException(option + " '" + spec + "' is neither a file nor a description like 'socket:2 core:8'");
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    /**
     * The tree TreeMatch places on: each host's tree cut at its cores and without single-child
     * levels, under a {@code host} level of {@code hosts} hosts and the {@code network} levels
     * (a synthetic description such as {@code switch:2}, or null). A topology that already has
     * a host level is the cluster itself.
     */
    public static Topology cluster(Topology host, int hosts, String network, String option) throws UsageException {
        Topology perHost = host.leavesAt("Core").compact();
        if (host.levelNamed("host") >= 0) {
            if (network != null) {
                throw new UsageException("--network: the topology already has its host level; describe the network in it");
            }
            return perHost;
        }
        List<Topology.Level> above = new ArrayList<>();
        if (network != null) {
            try {
                above.addAll(TopologyFormats.synthetic(network).levels());
            } catch (IllegalArgumentException e) {
                throw new UsageException("--network: " + e.getMessage());
            }
        }
        try {
            return perHost.cluster(above, hosts);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }
}
