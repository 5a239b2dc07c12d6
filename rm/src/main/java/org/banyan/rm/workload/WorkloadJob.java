package org.banyan.rm.workload;

/**
 * One job of a workload: when it arrives and which application at which sizes.
 *
 * @param id            from 1, in arrival order
 * @param submitSeconds its arrival
 * @param app           the application (sizes included)
 */
public record WorkloadJob(int id, double submitSeconds, AppModel app) {}
