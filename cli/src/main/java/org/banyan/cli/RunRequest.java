package org.banyan.cli;

import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.core.tree.TopologySpec;
import org.banyan.runtime.head.OutputOptions;
import org.banyan.runtime.launch.LaunchAgent;

/**
 * A validated {@code banyan run}: everything needed to launch, nothing launched yet.
 *
 * @param topology the tree the daemons are spawned along, which carries the head's traffic
 * @param routing  the topology daemon-to-daemon messages follow
 */
public record RunRequest(JobDescription job, HeadSettings settings, OutputOptions output, LaunchAgent agent,
                         TopologySpec topology, TopologySpec routing) {}
