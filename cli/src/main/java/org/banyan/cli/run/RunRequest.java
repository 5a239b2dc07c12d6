package org.banyan.cli.run;

import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.dvm.DvmFiles;
import org.banyan.runtime.head.OutputOptions;
import org.banyan.runtime.launch.LaunchAgent;

/**
 * A validated {@code banyan run}: everything needed to launch, nothing launched yet.
 *
 * @param topology the tree the daemons are spawned along, which carries the head's traffic
 * @param routing  the topology daemon-to-daemon messages follow
 * @param dvm      the DVM to run on ({@code --dvm}), or null to start daemons; with a DVM only
 *                 {@code dvmJob} and {@code output} are set
 * @param displayAllocation {@code --display-allocation}: the hosts and their slots go to stderr first
 * @param reportPid {@code --report-pid}: where banyan's process id goes first ({@code -} stdout,
 *                  {@code +} stderr, else a file), or null
 * @param dvmFromEnvironment the DVM is the one {@code BANYAN_DVM} names, not {@code --dvm}'s
 */
public record RunRequest(JobDescription job, HeadSettings settings, OutputOptions output, LaunchAgent agent,
                         TopologySpec topology, TopologySpec routing, DvmFiles dvm, ClientMessage.RunJob dvmJob,
                         boolean displayAllocation, String reportPid, boolean dvmFromEnvironment) {
    public RunRequest(JobDescription job, HeadSettings settings, OutputOptions output, LaunchAgent agent,
                      TopologySpec topology, TopologySpec routing) {
        this(job, settings, output, agent, topology, routing, null, null, false, null, false);
    }

    static RunRequest forDvm(DvmFiles dvm, ClientMessage.RunJob job, OutputOptions output, boolean fromEnvironment) {
        return new RunRequest(null, null, output, null, null, null, dvm, job, false, null, fromEnvironment);
    }

    /** This request, its allocation printed first or not. */
    RunRequest withDisplayAllocation(boolean display) {
        return new RunRequest(job, settings, output, agent, topology, routing, dvm, dvmJob, display, reportPid, dvmFromEnvironment);
    }

    /** This request, its process id reported to {@code where} first (null: not). */
    RunRequest withReportPid(String where) {
        return new RunRequest(job, settings, output, agent, topology, routing, dvm, dvmJob, displayAllocation, where, dvmFromEnvironment);
    }

    /** The hosts and their slots as Open MPI's {@code --display-allocation} lays them out. */
    public String allocation() {
        StringBuilder out = new StringBuilder("======================   ALLOCATED NODES   ======================\n");
        for (org.banyan.core.job.Node n : job.nodes()) {
            out.append('\t').append(n.name()).append(": slots=").append(n.slots()).append(" state=UP\n");
        }
        return out.append("=================================================================\n").toString();
    }
}
