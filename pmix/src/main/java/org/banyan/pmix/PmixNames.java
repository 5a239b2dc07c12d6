package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.banyan.pmix.PmixLibrary.INFO_SIZE;
import static org.banyan.pmix.PmixLibrary.INFO_VALUE_DATA;
import static org.banyan.pmix.PmixLibrary.INFO_VALUE_TYPE;
import static org.banyan.pmix.CCall.seg;
import static org.banyan.pmix.PmixLibrary.PMIX_STRING;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.core.wire.OverlayMessage;

/**
 * PMIx's publish, lookup and unpublish (MPI_Publish_name, MPI_Lookup_name, MPI_Unpublish_name)
 * answered by the job's name service at the head, as PMI's are: each key of a request is one
 * name request up the overlay ({@link PmixServer.Listener#nameRequest}), and the request's
 * callback is called when the last answer is in ({@link #reply}).
 *
 * <p>Layouts read here, besides {@link PmixLibrary}'s: {@code pmix_info_t} (552 bytes, key at 0,
 * value at 520: type {@code uint16_t} at 520, a string's {@code char *} at 528) and
 * {@code pmix_pdata_t} (808 bytes: proc at 0, key at 260, value at 776), PMIx 4.2.2. String
 * values (MPI's port names) and byte objects ({@code pmix_byte_object_t}: pointer at 528, size
 * at 536; Open MPI's connect/accept publishes its communicator ids so) are published; keys that
 * start with {@code pmix.} are directives (range, persistence, wait) and are not published.
 */
final class PmixNames {
    static final int PUBLISH = 0;
    static final int UNPUBLISH = 1;
    static final int LOOKUP = 2;
    private static final int PDATA_SIZE = 808;
    private static final int PDATA_KEY = 260;
    private static final int PDATA_VALUE = 776;
    private static final int KEY_MAX = 511;
    private static final short PMIX_BOOL = 1;
    private static final short PMIX_INT = 6;
    private static final short PMIX_UINT32 = 14;
    private static final int ERR_TIMEOUT = -24;
    private static final short PMIX_BYTE_OBJECT = 27;
    /**
     * How a published byte object (Open MPI's connect/accept publishes its communicator ids as
     * one) is kept in the head's name service, which holds strings: this prefix and base64.
     */
    private static final String BYTES = "pmix.bytes:";
    private static final int ERR_DUPLICATE_KEY = -53;
    private static final int ERR_BAD_PARAM = -27;
    private static final int RANK_WILDCARD = -2; // 4294967294 as a uint32_t

    /** One request of the server, waiting for the answers to its keys. */
    private static final class Pending {
        final int op;
        final String nspace;
        final MemorySegment callback;
        final MemorySegment callbackData;
        int waiting;
        boolean allOk = true;
        boolean timedOut;
        final List<String[]> found = new ArrayList<>();

        Pending(int op, String nspace, MemorySegment callback, MemorySegment callbackData, int waiting) {
            this.op = op;
            this.nspace = nspace;
            this.callback = callback;
            this.callbackData = callbackData;
            this.waiting = waiting;
        }
    }

    /** Tokens of every request the server sends the head (names, spawns, connects). */
    static final AtomicInteger NEXT = new AtomicInteger();
    /** One key of a request: the request, and the key its token asks about. */
    private record Asked(Pending request, String key) {}

    private static final Map<Integer, Asked> BY_TOKEN = new ConcurrentHashMap<>();

    private PmixNames() {}

    // --- upcalls, on PMIx's progress thread ---------------------------------------------------

    /** The server module's entry {@code name} (publish, lookup, unpublish). */
    static MemorySegment callback(String name) throws ReflectiveOperationException {
        return CCall.callback(MethodHandles.lookup(), name);
    }

    /** {@code publish(proc, info, ninfo, cbfunc, cbdata)} */
    private static long publish(long proc, long info, long ninfo, long callback, long data, long u5, long u6, long u7) {
        return publish(seg(proc), seg(info), ninfo, seg(callback), seg(data));
    }

    /** {@code lookup(proc, keys, info, ninfo, cbfunc, cbdata)} */
    private static long lookup(long proc, long keys, long info, long ninfo, long callback, long data, long u6, long u7) {
        return lookup(seg(proc), seg(keys), seg(info), ninfo, seg(callback), seg(data));
    }

    /** {@code unpublish(proc, keys, info, ninfo, cbfunc, cbdata)} */
    private static long unpublish(long proc, long keys, long info, long ninfo, long callback, long data, long u6, long u7) {
        return unpublish(seg(proc), seg(keys), seg(info), ninfo, seg(callback), seg(data));
    }

    static int publish(MemorySegment proc, MemorySegment info, long ninfo, MemorySegment callback, MemorySegment data) {
        try {
            List<String[]> pairs = new ArrayList<>();
            MemorySegment infos = info.reinterpret(INFO_SIZE * Math.max(0, ninfo));
            for (long i = 0; i < ninfo; i++) {
                MemorySegment one = infos.asSlice(i * INFO_SIZE, INFO_SIZE);
                String key = one.getString(0);
                if (key.startsWith("pmix.")) {
                    continue;
                }
                short type = one.get(JAVA_SHORT, INFO_VALUE_TYPE);
                if (type == PMIX_STRING) {
                    pairs.add(new String[] {key, one.get(ADDRESS, INFO_VALUE_DATA).reinterpret(Integer.MAX_VALUE).getString(0)});
                } else if (type == PMIX_BYTE_OBJECT) {
                    long size = one.get(JAVA_LONG, INFO_VALUE_DATA + 8);
                    byte[] bytes = size == 0 ? new byte[0]
                            : one.get(ADDRESS, INFO_VALUE_DATA).reinterpret(size).toArray(JAVA_BYTE);
                    pairs.add(new String[] {key, BYTES + Base64.getEncoder().encodeToString(bytes)});
                } else {
                    return PmixLibrary.ERR_NOT_SUPPORTED;
                }
            }
            return start(PUBLISH, proc, pairs, callback, data);
        } catch (Throwable t) {
            return PmixLibrary.ERR_NOT_SUPPORTED;
        }
    }

    static int lookup(MemorySegment proc, MemorySegment keys, MemorySegment info, long ninfo, MemorySegment callback,
                      MemorySegment data) {
        try {
            return waits(info, ninfo) ? keyed(OverlayMessage.NameRequest.LOOKUP_WAIT, timeout(info, ninfo), proc, keys, callback,
                    data) : keyed(LOOKUP, "", proc, keys, callback, data);
        } catch (Throwable t) {
            return PmixLibrary.ERR_NOT_SUPPORTED;
        }
    }

    /** Whether a lookup's directives ask it to wait for the names ({@code pmix.wait}, unless a false bool). */
    private static boolean waits(MemorySegment info, long ninfo) {
        MemorySegment infos = info.reinterpret(INFO_SIZE * Math.max(0, ninfo));
        for (long i = 0; i < ninfo; i++) {
            MemorySegment one = infos.asSlice(i * INFO_SIZE, INFO_SIZE);
            if ("pmix.wait".equals(one.getString(0))) {
                return one.get(JAVA_SHORT, INFO_VALUE_TYPE) != PMIX_BOOL || one.get(JAVA_BYTE,
                        INFO_VALUE_DATA) != 0;
            }
        }
        return false;
    }

    /**
     * A waiting lookup's {@code pmix.timeout} in seconds (an {@code int} or {@code uint32_t} at
     * the value's data), as the name request carries it; empty when it gave none.
     */
    private static String timeout(MemorySegment info, long ninfo) {
        MemorySegment infos = info.reinterpret(INFO_SIZE * Math.max(0, ninfo));
        for (long i = 0; i < ninfo; i++) {
            MemorySegment one = infos.asSlice(i * INFO_SIZE, INFO_SIZE);
            short type = one.get(JAVA_SHORT, INFO_VALUE_TYPE);
            if ("pmix.timeout".equals(one.getString(0)) && (type == PMIX_INT || type == PMIX_UINT32)) {
                int seconds = one.get(JAVA_INT, INFO_VALUE_DATA);
                return seconds > 0 ? Integer.toString(seconds) : "";
            }
        }
        return "";
    }

    static int unpublish(MemorySegment proc, MemorySegment keys, MemorySegment info, long ninfo, MemorySegment callback,
                         MemorySegment data) {
        return keyed(UNPUBLISH, "", proc, keys, callback, data);
    }

    /** Each key one request to the head, its port {@code port} (a waiting lookup's seconds). */
    private static int keyed(int op, String port, MemorySegment proc, MemorySegment keys, MemorySegment callback,
                             MemorySegment data) {
        try {
            if (keys.equals(MemorySegment.NULL)) {
                return PmixLibrary.ERR_NOT_SUPPORTED; // "everything this process published": not kept per process
            }
            List<String[]> pairs = new ArrayList<>();
            MemorySegment array = keys.reinterpret(Long.MAX_VALUE);
            for (long i = 0; ; i++) {
                MemorySegment k = array.get(ADDRESS, 8 * i);
                if (k.equals(MemorySegment.NULL)) {
                    break;
                }
                pairs.add(new String[] {k.reinterpret(Integer.MAX_VALUE).getString(0), port});
            }
            return start(op, proc, pairs, callback, data);
        } catch (Throwable t) {
            return PmixLibrary.ERR_NOT_SUPPORTED;
        }
    }

    private static int start(int op, MemorySegment proc, List<String[]> pairs, MemorySegment callback, MemorySegment data) {
        PmixServer s = PmixServer.instance();
        String nspace = proc.reinterpret(PmixLibrary.PROC_SIZE).getString(0);
        int jobId = s == null ? -1 : s.jobIdOf(nspace);
        if (jobId < 0) {
            return PmixLibrary.ERR_NOT_FOUND;
        }
        if (pairs.isEmpty()) {
            return ERR_BAD_PARAM;
        }
        Pending p = new Pending(op, nspace, callback, data, pairs.size());
        List<Integer> tokens = new ArrayList<>();
        for (String[] pair : pairs) {
            int token = NEXT.getAndIncrement();
            BY_TOKEN.put(token, new Asked(p, pair[0]));
            tokens.add(token);
        }
        PmixServer.Listener listener = s.listenerOf(nspace);
        for (int i = 0; i < pairs.size(); i++) {
            listener.nameRequest(jobId, tokens.get(i), op, pairs.get(i)[0], pairs.get(i)[1]);
        }
        return PmixLibrary.SUCCESS;
    }

    // --- answers, on the daemon's thread ----------------------------------------------------

    /** The head's answer to one key of a request; the request's callback once all are in. */
    static void reply(PmixLibrary lib, int token, boolean ok, String text) {
        Asked asked = BY_TOKEN.remove(token);
        if (asked == null) {
            PmixSpawnOps.reply(lib, token, ok, text);
            return;
        }
        Pending p = asked.request();
        String key = asked.key();
        boolean done;
        synchronized (p) {
            p.allOk &= ok;
            p.timedOut |= !ok && "timeout".equals(text);
            if (ok && p.op != PUBLISH && p.op != UNPUBLISH) {
                p.found.add(new String[] {key, text});
            }
            done = --p.waiting == 0;
        }
        if (!done) {
            return;
        }
        try {
            if (p.op != PUBLISH && p.op != UNPUBLISH) {
                answerLookup(lib, p);
            } else {
                int status = p.allOk ? PmixLibrary.SUCCESS : p.op == PUBLISH ? ERR_DUPLICATE_KEY : PmixLibrary.ERR_NOT_FOUND;
                PmixLibrary.opDone(p.callback, status, p.callbackData);
            }
        } catch (Throwable t) {
            System.err.println("banyand: cannot answer a PMIx name request: " + t);
        }
    }

    /**
     * The values found, as {@code pmix_pdata_t}s the server packs for the client during the
     * callback. They are made with malloc and PMIx_Value_load and not freed: a few hundred bytes
     * per lookup, the price of not depending on when the server is done with them.
     */
    private static void answerLookup(PmixLibrary lib, Pending p) {
        if (p.found.isEmpty()) {
            int status = p.timedOut ? ERR_TIMEOUT : PmixLibrary.ERR_NOT_FOUND;
            PmixLibrary.lookupDone(p.callback, status, MemorySegment.NULL, 0L, p.callbackData);
            return;
        }
        long size = (long) PDATA_SIZE * p.found.size();
        MemorySegment pdata = lib.malloc(size);
        pdata.fill((byte) 0);
        for (int i = 0; i < p.found.size(); i++) {
            MemorySegment one = pdata.asSlice((long) i * PDATA_SIZE, PDATA_SIZE);
            one.setString(0, p.nspace);
            one.set(JAVA_INT, PmixLibrary.PROC_RANK_OFFSET, RANK_WILDCARD);
            String key = p.found.get(i)[0];
            one.setString(PDATA_KEY, key.length() > KEY_MAX ? key.substring(0, KEY_MAX) : key);
            String value = p.found.get(i)[1];
            try (Arena a = Arena.ofConfined()) {
                if (value.startsWith(BYTES)) {
                    byte[] bytes = Base64.getDecoder().decode(value.substring(BYTES.length()));
                    MemorySegment object = a.allocate(16, 8); // pmix_byte_object_t: bytes, size (PMIx copies them)
                    object.set(ADDRESS, 0, bytes.length == 0 ? MemorySegment.NULL
                            : a.allocateFrom(JAVA_BYTE, bytes));
                    object.set(JAVA_LONG, 8, bytes.length);
                    lib.valueLoad(one.asSlice(PDATA_VALUE), object, PMIX_BYTE_OBJECT);
                } else {
                    lib.valueLoad(one.asSlice(PDATA_VALUE), a.allocateFrom(value), PMIX_STRING);
                }
            }
        }
        PmixLibrary.lookupDone(p.callback, PmixLibrary.SUCCESS, pdata, (long) p.found.size(),
                p.callbackData);
    }
}
