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

    /** Of {@code shapes}, those no pilot of {@code links} could run, each with every pilot's reason. */
    static java.util.Map<SlotRequest, String> noneFits(List<SlotRequest> shapes, java.util.Collection<PilotLink> links) {
        java.util.Map<SlotRequest, String> why = new java.util.HashMap<>();
        for (SlotRequest shape : shapes) {
            List<String> reasons = new ArrayList<>();
            for (PilotLink l : links) {
                String no = l.gone ? "its connection ended" : l.fit.whyNot(shape);
                if (no == null) {
                    reasons = null;
                    break;
                }
                reasons.add(l.pilot.uid() + ": " + no);
            }
            if (reasons != null) {
                why.put(shape, String.join("; ", reasons));
            }
        }
        return why;
    }
}
