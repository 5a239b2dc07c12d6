package org.banyan.pilot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.banyan.core.pilot.TaskState;

/**
 * A task manager's function tasks and pools: the pools it made (closed with it), and where
 * function tasks submitted like other tasks go: the first pool the program made, else a default
 * pool of one worker per core of the pilots added so far but one (a worker holds its core
 * while the pool lives: a pool beside the program's, or one on every core, left an executable
 * task submitted next in AGENT_SCHEDULING for ever, with no word why).
 */
final class FunctionTasks {
    /** How the manager moves a task on (its states, profile and callbacks). */
    interface Moves {
        void move(Task t, TaskState to, long now, int code, String why);
    }

    private final TaskManager tmgr;
    private final Moves moves;
    private final IntSupplier pilotCores;
    private final List<FunctionPool> pools = new ArrayList<>();
    private FunctionPool defaultPool;

    FunctionTasks(TaskManager tmgr, Moves moves, IntSupplier pilotCores) {
        this.tmgr = tmgr;
        this.moves = moves;
        this.pilotCores = pilotCores;
    }

    /** The default pool's workers on pilots of {@code cores}: all but one, so that an executable task always has a core. */
    static int defaultWorkers(int cores) {
        return Math.max(1, cores - 1);
    }

    FunctionPool pool(int workers) throws IOException {
        FunctionPool pool = new FunctionPool(tmgr, workers);
        synchronized (pools) {
            pools.add(pool);
        }
        return pool;
    }

    void run(List<Task> functions) {
        FunctionPool pool;
        try {
            // Not under the manager's lock: starting the workers submits tasks, whose acceptance needs it.
            synchronized (this) {
                FunctionPool made;
                synchronized (pools) {
                    made = pools.stream().filter(p -> p != defaultPool && !p.isClosed()).findFirst().orElse(null);
                }
                if (made != null) {
                    pool = made;
                } else {
                    if (defaultPool == null) {
                        defaultPool = pool(defaultWorkers(pilotCores.getAsInt()));
                    }
                    pool = defaultPool;
                }
            }
        } catch (IOException e) {
            for (Task t : functions) {
                moves.move(t, TaskState.FAILED, Session.nowMicros(), -1, "cannot start the function workers: " + e.getMessage());
            }
            return;
        }
        for (Task t : functions) {
            moves.move(t, TaskState.AGENT_EXECUTING, Session.nowMicros(), 0, "function pool");
            pool.submit(t.description().function).whenComplete((value, error) -> {
                long at = Session.nowMicros();
                if (error == null) {
                    t.result().complete(value);
                    moves.move(t, TaskState.DONE, at, 0, "");
                } else {
                    Throwable cause = error instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                            ? c.getCause() : error;
                    t.result().completeExceptionally(cause);
                    moves.move(t, TaskState.FAILED, at, -1, cause.toString());
                }
            });
        }
    }

    void close() {
        List<FunctionPool> open;
        synchronized (pools) {
            open = List.copyOf(pools);
        }
        for (FunctionPool p : open) {
            p.close();
        }
    }
}
