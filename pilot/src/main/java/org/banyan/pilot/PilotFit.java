package org.banyan.pilot;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.wire.ClientMessage;

/**
 * What one pilot could ever run, from its DVM's hosts as they were when the task manager
 * connected: a task its agent would refuse as never fitting (a rank with more cores or GPUs than
 * any host has, more in all than the pilot has) goes to another pilot. Asked through the general
 * scheduler's own rule, so the two cannot disagree.
 */
final class PilotFit {
    private static final String NONE = "no pilot of this task manager can run it: ";
    private final GeneralScheduler shape;

    private PilotFit(List<NodeResources> hosts) {
        this.shape = new GeneralScheduler(hosts);
    }

    /** The pilot's hosts that are up, with their slots and GPUs. */
    static PilotFit of(ClientMessage.Status status) {
        List<NodeResources> hosts = new ArrayList<>();
        for (ClientMessage.HostStatus h : status.hosts()) {
            if (h.state() == ClientMessage.HostStatus.State.UP) {
                hosts.add(new NodeResources(h.name(), h.slots(), h.gpus()));
            }
        }
        return new PilotFit(hosts);
    }

    /** Why a task of {@code slots} could never run on this pilot, or null when it could. */
    String whyNot(SlotRequest slots) {
        return shape.neverFits(slots);
    }

    boolean fits(SlotRequest slots) {
        return whyNot(slots) == null;
    }

    /**
     * Of {@code kinds}, those no pilot of {@code links} could run, each with why: every pilot's
     * reason, or, for a manager of one pilot, the agent's own words ({@code cannot run on this
     * pilot: ...}, what a bag of {@code banyan submit} has always said). {@code pilots} are all
     * the manager's, to say why a task that names one cannot have it; an active pilot the
     * manager could not connect to fits nothing, and says why.
     */
    static java.util.Map<UnsentTasks.Kind, String> noneFits(List<UnsentTasks.Kind> kinds, PilotRoster roster) {
        java.util.Collection<PilotLink> links = roster.links();
        List<Pilot> pilots = roster.pilots();
        java.util.Map<UnsentTasks.Kind, String> why = new java.util.HashMap<>();
        for (UnsentTasks.Kind kind : kinds) {
            List<String> reasons = new ArrayList<>();
            // a pilot over whose connection has not ended yet counts as over: it takes nothing more
            if (kind.pilot() != null && links.stream().noneMatch(l -> l.pilot.uid().equals(kind.pilot()) && !l.pilot.state().isFinal())) {
                Pilot named = pilots.stream().filter(p -> p.uid().equals(kind.pilot())).findFirst().orElse(null);
                String cut = named == null ? null : roster.whyUnreachable(named);
                why.put(kind, NONE + (cut != null ? "its pilot " + named.uid() + ": " + cut
                        : named != null ? "its pilot " + named + " is over"
                        : "it names pilot " + kind.pilot() + ", which is not one of this task manager's ("
                                + String.join(", ", pilots.stream().map(Pilot::uid).toList()) + ")"));
                continue;
            }
            for (PilotLink l : links) {
                if (kind.pilot() != null && !kind.pilot().equals(l.pilot.uid())) {
                    continue;
                }
                String no = l.gone ? "its connection ended" : l.pilot.state().isFinal() ? "it is over" : l.fit.whyNot(kind.slots());
                if (no == null) {
                    reasons = null;
                    break;
                }
                reasons.add((pilots.size() == 1 ? "" : l.pilot.uid() + ": ") + no);
            }
            for (Pilot p : pilots) {
                String cut = roster.whyUnreachable(p);
                if (reasons != null && cut != null && (kind.pilot() == null || kind.pilot().equals(p.uid()))) {
                    reasons.add((pilots.size() == 1 ? "" : p.uid() + ": ") + cut);
                }
            }
            if (reasons != null) {
                why.put(kind, (pilots.size() == 1 ? "cannot run on this pilot: " : NONE) + String.join("; ", reasons));
            }
        }
        return why;
    }
}
