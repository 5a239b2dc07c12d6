package org.banyan.core.wire;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.WireUp;
import org.banyan.core.pilot.TaskDependency;
import org.banyan.core.pilot.TaskState;
import org.banyan.topo.CpuBinding;

/**
 * The byte each enum the codecs carry is written as, given here once: the wire does not follow
 * the enums' declaration order (a constant added in the middle, or two swapped, would have
 * changed what an older peer reads), and a byte no constant has is bad input, named, not an
 * {@code ArrayIndexOutOfBoundsException}. The codes are the ones the ordinals gave when the
 * tables were written, so the wire did not change.
 */
final class WireCodes<E extends Enum<E>> {
    static final WireCodes<MappingPolicy> MAPPING = new WireCodes<>("mapping policy", MappingPolicy.class, List.of(
            MappingPolicy.SLOT, MappingPolicy.NODE, MappingPolicy.SLOT_RANKED_BY_NODE, MappingPolicy.NODE_RANKED_BY_SLOT));
    static final WireCodes<Modex> MODEX = new WireCodes<>("modex", Modex.class, List.of(Modex.FULL, Modex.LAZY));
    static final WireCodes<WireUp> WIRE_UP = new WireCodes<>("wire-up", WireUp.class, List.of(WireUp.PMI, WireUp.PMIX,
            WireUp.BOTH));
    static final WireCodes<CpuBinding.Target> BIND_TO = new WireCodes<>("binding", CpuBinding.Target.class, List.of(
            CpuBinding.Target.NONE, CpuBinding.Target.CORE, CpuBinding.Target.SOCKET, CpuBinding.Target.NUMA,
            CpuBinding.Target.HWTHREAD));
    static final WireCodes<TaskDependency.Kind> DEPENDENCY = new WireCodes<>("dependency kind", TaskDependency.Kind.class,
            List.of(TaskDependency.Kind.AFTER, TaskDependency.Kind.AFTER_ANY, TaskDependency.Kind.AFTER_OK,
                    TaskDependency.Kind.AFTER_NOT_OK));
    static final WireCodes<TaskState> TASK_STATE = new WireCodes<>("task state", TaskState.class, List.of(
            TaskState.NEW, TaskState.TMGR_SCHEDULING_PENDING, TaskState.TMGR_SCHEDULING, TaskState.TMGR_STAGING_INPUT_PENDING,
            TaskState.TMGR_STAGING_INPUT, TaskState.AGENT_STAGING_INPUT_PENDING, TaskState.AGENT_STAGING_INPUT,
            TaskState.AGENT_SCHEDULING_PENDING, TaskState.AGENT_SCHEDULING, TaskState.AGENT_EXECUTING_PENDING,
            TaskState.AGENT_EXECUTING, TaskState.AGENT_STAGING_OUTPUT_PENDING, TaskState.AGENT_STAGING_OUTPUT,
            TaskState.TMGR_STAGING_OUTPUT_PENDING, TaskState.TMGR_STAGING_OUTPUT, TaskState.DONE, TaskState.FAILED,
            TaskState.CANCELED));
    static final WireCodes<ClientMessage.HostStatus.State> HOST_STATE = new WireCodes<>("host state",
            ClientMessage.HostStatus.State.class, List.of(ClientMessage.HostStatus.State.LOST, ClientMessage.HostStatus.State.UP,
            ClientMessage.HostStatus.State.RELEASED, ClientMessage.HostStatus.State.VACANT));

    private final String what;
    private final List<E> byCode;
    private final Map<E, Integer> codes;

    /** @param byCode every constant of {@code type}, at the index that is its code */
    private WireCodes(String what, Class<E> type, List<E> byCode) {
        this.what = what;
        this.byCode = List.copyOf(byCode);
        this.codes = new EnumMap<>(type);
        for (int i = 0; i < byCode.size(); i++) {
            if (codes.put(byCode.get(i), i) != null) {
                throw new IllegalArgumentException(what + ": " + byCode.get(i) + " has two codes");
            }
        }
        if (codes.size() != type.getEnumConstants().length) {
            throw new IllegalArgumentException(what + ": a constant without a code");
        }
    }

    int code(E value) {
        return codes.get(value);
    }

    /** @throws IllegalArgumentException for a byte no constant has */
    E of(int code) {
        if (code < 0 || code >= byCode.size()) {
            throw new IllegalArgumentException("unknown " + what + " " + code);
        }
        return byCode.get(code);
    }

    /** The constants in code order, for a test that they cover the enum. */
    List<E> all() {
        return byCode;
    }
}
