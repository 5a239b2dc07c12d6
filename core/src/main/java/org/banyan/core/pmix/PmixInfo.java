package org.banyan.core.pmix;

import java.util.List;

/**
 * One {@code pmix_info_t} a daemon hands to its PMIx server: a key of PMIx's standard
 * ({@code pmix.job.size}, ...) and a typed value. Built in Java so what a job registers can be
 * computed and tested without libpmix; the binding adds each to a list with
 * {@code PMIx_Info_list_add}.
 */
public record PmixInfo(String key, Type type, Object value) {
    /** The value types Banyan registers, with PMIx's type codes (pmix_common.h, PMIx 4.2). */
    public enum Type {
        BOOL(1), STRING(3), UINT16(13), UINT32(14), PROC_RANK(40), INFO_ARRAY(39);

        public final short code;

        Type(int code) {
            this.code = (short) code;
        }
    }

    public PmixInfo {
        boolean fits = switch (type) {
            case BOOL -> value instanceof Boolean;
            case STRING -> value instanceof String;
            case UINT16, UINT32, PROC_RANK -> value instanceof Integer;
            case INFO_ARRAY -> value instanceof List<?> l && l.stream().allMatch(PmixInfo.class::isInstance);
        };
        if (!fits) {
            throw new IllegalArgumentException(key + ": a " + type + " cannot hold " + value);
        }
        if (value instanceof List<?> l) {
            value = List.copyOf(l);
        }
    }

    public static PmixInfo bool(String key, boolean value) {
        return new PmixInfo(key, Type.BOOL, value);
    }

    public static PmixInfo string(String key, String value) {
        return new PmixInfo(key, Type.STRING, value);
    }

    public static PmixInfo uint32(String key, int value) {
        return new PmixInfo(key, Type.UINT32, value);
    }

    public static PmixInfo uint16(String key, int value) {
        return new PmixInfo(key, Type.UINT16, value);
    }

    public static PmixInfo rank(String key, int value) {
        return new PmixInfo(key, Type.PROC_RANK, value);
    }

    public static PmixInfo array(String key, List<PmixInfo> infos) {
        return new PmixInfo(key, Type.INFO_ARRAY, infos);
    }

    /** The nested infos of an INFO_ARRAY. */
    @SuppressWarnings("unchecked")
    public List<PmixInfo> infos() {
        return (List<PmixInfo>) value;
    }
}
