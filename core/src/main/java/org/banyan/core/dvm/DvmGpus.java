package org.banyan.core.dvm;

import org.banyan.topo.GpuDevices;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.GpuNames;
import org.banyan.core.pilot.NodeResources;

/**
 * A DVM's GPUs as its daemons found them ({@code GpuDevices}): each host's count, unless
 * {@code dvm start --gpus-per-host} declared one for all, and in either case the names its tasks
 * get in {@code CUDA_VISIBLE_DEVICES} when the daemon was given a list of its own.
 */
final class DvmGpus {
    private final int declared;
    private final GeneralScheduler scheduler;
    private final GpuNames names;
    private final IntFunction<String> hostOf;
    private final Consumer<String> say;

    /** @param declared GPUs on every host, or {@link DvmCore#FOUND_GPUS} */
    DvmGpus(int declared, GeneralScheduler scheduler, GpuNames names, IntFunction<String> hostOf, Consumer<String> say) {
        this.declared = declared;
        this.scheduler = scheduler;
        this.names = names;
        this.hostOf = hostOf;
        this.say = say;
    }

    /** What each host starts with, before its daemon says: the declared count, or none yet. */
    static int atStart(int declared) {
        return Math.max(0, declared);
    }

    /** The GPUs found on these daemons' hosts (daemon ids are node indexes), as {@code 0,1} lists. */
    void found(Map<Integer, String> byDaemon) {
        byDaemon.forEach((node, list) -> {
            List<String> found = GpuDevices.visible(list);
            String host = hostOf.apply(node);
            if (declared == DvmCore.FOUND_GPUS) {
                List<String> used = found.subList(0, Math.min(found.size(), NodeResources.MAX_GPUS));
                if (!scheduler.gpusFound(node, used.size())) {
                    say.accept(host + ": " + found.size() + " GPU(s) found while its GPUs were in use; kept " + scheduler.gpusOn(node));
                    return;
                }
                names.set(node, used);
                say.accept(host + ": " + used.size() + " GPU(s) found (" + String.join(",", used) + ")"
                        + (used.size() < found.size() ? "; " + found.size() + " listed, only " + NodeResources.MAX_GPUS + " are told apart" : ""));
            } else if (found.size() >= declared) {
                names.set(node, found.subList(0, declared));
            } else if (declared > 0) {
                say.accept(host + ": " + declared + " GPU(s) declared but its daemon was given " + found.size() + " (" + list
                        + "): its tasks get GPU numbers 0 to " + (declared - 1));
            }
        });
    }
}
