package org.banyan.pilot;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.pilot.PilotState;

/** Submits pilots and ends them; closing it (or its session) cancels the pilots still running. */
public final class PilotManager implements AutoCloseable {
    private final Session session;
    private final List<Pilot> pilots = new ArrayList<>();
    private boolean closed;

    public PilotManager(Session session) {
        this.session = session;
        session.own(this);
    }

    /**
     * Starts a pilot in the background; it becomes PMGR_ACTIVE once its DVM is up.
     *
     * @throws IllegalStateException once this manager or its session is closed: nothing would end the pilot
     */
    public synchronized Pilot submit(PilotDescription description) {
        if (closed || session.closed()) {
            throw new IllegalStateException(closed ? "the pilot manager is closed" : "the session is closed");
        }
        Pilot p = new Pilot(session.ids().nextPilot(), description, session);
        pilots.add(p);
        p.advance(PilotState.PMGR_LAUNCHING_PENDING, "");
        Thread.ofPlatform().daemon().name("launch-" + p.uid()).start(() -> {
            p.launch();
            if (description.runtimeMinutes() > 0 && p.state() == PilotState.PMGR_ACTIVE) {
                Thread.ofPlatform().daemon().name("runtime-" + p.uid()).start(() -> {
                    try {
                        Thread.sleep((long) (description.runtimeMinutes() * 60_000));
                        p.stop(PilotState.DONE, "runtime over");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
        });
        return p;
    }

    public void cancel(Pilot p) {
        p.cancel();
    }

    public synchronized List<Pilot> pilots() {
        return List.copyOf(pilots);
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        for (Pilot p : pilots()) {
            p.stop(PilotState.CANCELED, "session closed");
        }
    }
}
