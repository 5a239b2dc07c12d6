package org.banyan.core.dvm;

import org.banyan.core.job.WireUp;
import org.banyan.core.pilot.TaskRequest;

/**
 * How an MPI task's ranks are served, read from its program (the driver looks at the ELF file;
 * the simulator answers without files).
 */
@FunctionalInterface
public interface ProgramWireUp {
    WireUp of(TaskRequest task);
}
