package org.banyan.cli;

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
 */
public record RunRequest(JobDescription job, HeadSettings settings, OutputOptions output, LaunchAgent agent,
                         TopologySpec topology, TopologySpec routing, DvmFiles dvm, ClientMessage.RunJob dvmJob) {
    public RunRequest(JobDescription job, HeadSettings settings, OutputOptions output, LaunchAgent agent,
                      TopologySpec topology, TopologySpec routing) {
        this(job, settings, output, agent, topology, routing, null, null);
    }

    static RunRequest forDvm(DvmFiles dvm, ClientMessage.RunJob job, OutputOptions output) {
        return new RunRequest(null, null, output, null, null, null, dvm, job);
    }
}
