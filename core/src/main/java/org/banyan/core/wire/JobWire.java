package org.banyan.core.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankPlacement;
import org.banyan.topo.CpuBinding;

/**
 * A job's description on the wire: the body of the overlay's LAUNCH_JOB, and its placement in a
 * client's messages too. Big-endian, with {@link OverlayCodec}'s string, list and map.
 *
 * <pre>
 * job       := jobId:u32 apps:u32 app{apps} nodes:u32 node{nodes} mapping:u8 oversubscribe:u8
 *              stdinRank:u32 (-1: none, -2: every rank) launchDir:string modex:u8 (0 full, 1 lazy) placement
 *              pmixNamespace:string (null: the ranks use PMI-1/PMI-2) spawnedBy:u32 (-1: no job)
 *              pmiToo:u8 (1: PMI-1/PMI-2 served beside PMIx, the job's MPI unknown before it starts)
 *              placement := bindTo:u8 (0 none, 1 core, 2 socket, 3 numa, 4 hwthread) spread:u8 (bit 0 --map-by
 *                           socket, bit 1 ranked the other way, --rank-by) cpusPerRank:u32
 *                           reports:u8 (bit 0 --report-bindings, bit 1 --display-map) ranked:u32 (ranks a rankfile places, 0: none) (nodeOf:u32 slot:string){ranked}
 *                           heldNodes:u32 (0: none) (cores:u32 core:u32{cores}){heldNodes}   (a DVM's bound job:
 *                           per node, the cores its ranks there bind among; 0 cores: the whole host)
 *              app  := executable:string args:list count:u32 env:map workdir:string
 *              node := name:string slots:u32
 * </pre>
 */
final class JobWire {
    private JobWire() {}

    static void write(WireWriter w, JobDescription job) {
        w.u32(job.jobId()).u32(job.apps().size());
        job.apps().forEach(app -> writeApp(w, app));
        w.u32(job.nodes().size());
        for (Node node : job.nodes()) {
            w.string(node.name()).u32(node.slots());
        }
        w.u8(WireCodes.MAPPING.code(job.mapping())).u8(job.oversubscribe() ? 1 : 0).u32(job.stdinRank()).string(job.launchDir())
                .u8(WireCodes.MODEX.code(job.modex()));
        writePlacement(w, job.placement());
        w.string(job.pmixNamespace()).u32(job.spawnedBy()).u8(job.pmiToo() ? 1 : 0);
    }

    static void writeApp(WireWriter w, AppContext app) {
        w.string(app.executable()).list(app.args()).u32(app.count()).map(app.env()).string(app.workdir());
    }

    static List<AppContext> apps(ByteBuffer b) {
        int napps = OverlayCodec.count(b);
        List<AppContext> apps = new ArrayList<>(napps);
        for (int i = 0; i < napps; i++) {
            apps.add(new AppContext(OverlayCodec.string(b), OverlayCodec.list(b), b.getInt(), OverlayCodec.map(b), OverlayCodec.string(b)));
        }
        return apps;
    }

    static void writePlacement(WireWriter w, RankPlacement p) {
        w.u8(WireCodes.BIND_TO.code(p.bindTo())).u8((p.bySocket() ? 1 : 0) | (p.reranked() ? 2 : 0)).u32(p.cpusPerRank()).u8((p.report() ? 1 : 0) | (p.displayMap() ? 2 : 0))
                .u32(p.nodeOf() == null ? 0 : p.nodeOf().length);
        if (p.nodeOf() != null) {
            for (int r = 0; r < p.nodeOf().length; r++) {
                w.u32(p.nodeOf()[r]).string(p.slots()[r]);
            }
        }
        int[][] held = p.heldCores();
        w.u32(held == null ? 0 : held.length);
        if (held != null) {
            for (int[] cores : held) {
                w.u32(cores == null ? 0 : cores.length);
                for (int c : cores == null ? new int[0] : cores) {
                    w.u32(c);
                }
            }
        }
    }

    static RankPlacement readPlacement(ByteBuffer b) {
        CpuBinding.Target bindTo = WireCodes.BIND_TO.of(b.get());
        int spread = b.get();
        boolean bySocket = (spread & 1) != 0;
        int cpusPerRank = b.getInt();
        int reports = b.get();
        boolean report = (reports & 1) != 0;
        boolean displayMap = (reports & 2) != 0;
        int size = OverlayCodec.count(b);
        int[] nodeOf = null;
        String[] slots = null;
        if (size > 0) {
            nodeOf = new int[size];
            slots = new String[size];
            for (int r = 0; r < size; r++) {
                nodeOf[r] = b.getInt();
                slots[r] = OverlayCodec.string(b);
            }
        }
        int heldNodes = OverlayCodec.count(b);
        int[][] held = heldNodes == 0 ? null : new int[heldNodes][];
        for (int i = 0; i < heldNodes; i++) {
            int n = OverlayCodec.count(b);
            held[i] = n == 0 ? null : new int[n];
            for (int k = 0; k < n; k++) {
                held[i][k] = b.getInt();
            }
        }
        return new RankPlacement(bindTo, bySocket, cpusPerRank, report, displayMap, nodeOf, slots, held, (spread & 2) != 0);
    }

    static JobDescription read(ByteBuffer b) {
        int jobId = b.getInt();
        List<AppContext> apps = apps(b);
        int nnodes = OverlayCodec.count(b);
        List<Node> nodes = new ArrayList<>(nnodes);
        for (int i = 0; i < nnodes; i++) {
            nodes.add(new Node(OverlayCodec.string(b), b.getInt()));
        }
        MappingPolicy mapping = WireCodes.MAPPING.of(b.get());
        boolean oversubscribe = b.get() != 0;
        int stdinRank = b.getInt();
        String launchDir = OverlayCodec.string(b);
        Modex modex = WireCodes.MODEX.of(b.get());
        RankPlacement placement = readPlacement(b);
        String pmixNamespace = OverlayCodec.string(b);
        int spawnedBy = b.getInt();
        boolean pmiToo = b.get() != 0;
        return new JobDescription(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, modex, placement, pmixNamespace,
                spawnedBy, pmiToo);
    }
}
