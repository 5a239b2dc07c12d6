package org.banyan.pilot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.banyan.core.pilot.TaskState;

/**
 * Tasks another program left running on a pilot, followed by a task manager
 * ({@link TaskManager#attach}): each gets a stand-in description, is counted on the pilot as a
 * sent task is, and comes back once the DVM has told its state.
 */
final class TaskAttachment {
    /** How long the DVM may take to tell the attached tasks' states (it does so at once). */
    static final long WAIT_MILLIS = 30_000;
    private static final Set<TaskState> TOLD = EnumSet.complementOf(EnumSet.of(TaskState.NEW));

    private final TaskManager manager;
    private final PilotLink link;

    TaskAttachment(TaskManager manager, PilotLink link) {
        this.manager = manager;
        this.link = link;
    }

    List<Task> attach(List<Integer> ids) throws IOException {
        List<Task> tasks = new ArrayList<>(ids.size());
        long now = Session.nowMicros();
        for (int id : ids) {
            tasks.add(new Task("task.dvm" + id, TaskDescription.attached(), null, manager, now));
        }
        synchronized (manager) {
            link.inFlight += tasks.size(); // they end on it as sent tasks do
        }
        try {
            link.watch(tasks, ids);
            // the DVM's answer is followed at once by each task's state now, on the link's reader:
            // returned before those, a task still read NEW
            for (Task t : tasks) {
                t.waitState(TOLD, WAIT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while attaching", e);
        }
        return tasks;
    }
}
