package org.banyan.cli;

import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.runtime.head.OutputOptions;

/** A validated {@code banyan run}: everything needed to launch, nothing launched yet. */
public record RunRequest(JobDescription job, HeadSettings settings, OutputOptions output, Launcher launcher) {
    /** How daemons are started. */
    public enum Launcher {
        /** One host, its daemon on a thread of the head (default for a single host). */
        INPROC,
        /** Each daemon in its own JVM on this machine. */
        LOCAL
    }
}
