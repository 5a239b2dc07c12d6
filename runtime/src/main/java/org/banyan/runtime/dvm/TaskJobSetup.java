package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.banyan.core.job.WireUp;
import org.banyan.pmix.ElfNeeded;
import org.banyan.pmix.ProgramLookup;
import org.banyan.runtime.os.FileErrors;

/**
 * What an MPI task's job needs before it is submitted, done off the DVM's loop
 * ({@link org.banyan.core.dvm.DvmAction.PrepareTaskJob}): its sandbox made (its ranks start in
 * it) and its program's ELF file read for how its ranks are served ({@link ElfNeeded#wireUp}),
 * found from the sandbox along the PATH its ranks get: the task's own, else the DVM's, which its
 * daemons share when they started here; a program not found or not readable is served both ways.
 * Each job is prepared on a pool's thread, as long as its file system takes: a hung mount holds
 * that thread (nothing takes a thread out of such a call; the pool makes another for the next
 * job), and a cancel meanwhile ends the task in the core at once.
 */
final class TaskJobSetup {
    /** What the loop hears (a pool's thread). */
    interface Events {
        /** Job {@code job} is ready: its ranks are served {@code wireUp}. */
        void prepared(int job, WireUp wireUp);

        /** Job {@code job}'s sandbox could not be made, and why. */
        void failed(int job, String why);
    }

    private final Events events;
    private final ExecutorService pool = Executors.newCachedThreadPool(
            r -> Thread.ofPlatform().daemon().stackSize(256 << 10).name("dvm-task-job-setup").unstarted(r));

    TaskJobSetup(Events events) {
        this.events = events;
    }

    /** Prepares job {@code job} (see the class); {@code path} null: the DVM's own PATH. */
    void prepare(int job, String sandbox, String executable, String path) {
        pool.execute(() -> {
            Path dir = Path.of(sandbox);
            try {
                Files.createDirectories(dir);
            } catch (IOException e) { // as a task of one process says it
                events.failed(job, executable + ": cannot make its directory " + dir + " (" + FileErrors.reason(e) + ")");
                return;
            }
            events.prepared(job, wireUp(dir, executable, path == null ? System.getenv("PATH") : path));
        });
    }

    private static WireUp wireUp(Path sandbox, String executable, String path) {
        try {
            Path program = ProgramLookup.find(executable, sandbox, path);
            return ElfNeeded.wireUp(program == null ? List.of() : ElfNeeded.of(program));
        } catch (RuntimeException e) {
            return WireUp.BOTH;
        }
    }
}
