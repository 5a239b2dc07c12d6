package org.banyan.rm.workload;

/**
 * One job of a workload: when it arrives and which application at which sizes.
 *
 * @param id              from 1, in arrival order
 * @param submitSeconds   its arrival
 * @param app             the application (sizes included)
 * @param estimateSeconds the run time it is submitted with (what backfilling trusts)
 */
public record WorkloadJob(int id, double submitSeconds, AppModel app, double estimateSeconds) {
    /** A job whose estimate is its run at its maximum size. */
    public WorkloadJob(int id, double submitSeconds, AppModel app) {
        this(id, submitSeconds, app, app.startSeconds() + app.runSeconds(app.maxNodes()));
    }
}
