package org.banyan.pmix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared libraries a program names (its {@code DT_NEEDED} entries), read from its ELF file
 * without running it, to tell how it will wire up: MPICH-family programs through PMI, Open MPI
 * programs through PMIx. Reads 64- and 32-bit, little- and big-endian files through their
 * section headers (the {@code SHT_DYNAMIC} section and the string table it links to); anything
 * else (a script, a JAR, a stripped-of-sections binary) names nothing.
 */
public final class ElfNeeded {
    private static final int SHT_DYNAMIC = 6;
    private static final long DT_NEEDED = 1;

    private ElfNeeded() {}

    public static List<String> of(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 64 || size > Integer.MAX_VALUE) {
                return List.of();
            }
            ByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            if (b.getInt(0) != 0x7F454C46) { // \x7fELF
                return List.of();
            }
            boolean wide = b.get(4) == 2;
            b.order(b.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
            long shoff = wide ? b.getLong(0x28) : b.getInt(0x20) & 0xFFFFFFFFL;
            int shentsize = b.getShort(wide ? 0x3A : 0x2E) & 0xFFFF;
            int shnum = b.getShort(wide ? 0x3C : 0x30) & 0xFFFF;
            List<String> out = new ArrayList<>();
            for (int i = 0; i < shnum; i++) {
                int sh = Math.toIntExact(shoff + (long) i * shentsize);
                if (b.getInt(sh + 4) != SHT_DYNAMIC) {
                    continue;
                }
                long offset = wide ? b.getLong(sh + 0x18) : b.getInt(sh + 0x10) & 0xFFFFFFFFL;
                long length = wide ? b.getLong(sh + 0x20) : b.getInt(sh + 0x14) & 0xFFFFFFFFL;
                int link = b.getInt(sh + (wide ? 0x28 : 0x18));
                int str = Math.toIntExact(shoff + (long) link * shentsize);
                long strOffset = wide ? b.getLong(str + 0x18) : b.getInt(str + 0x10) & 0xFFFFFFFFL;
                int entry = wide ? 16 : 8;
                for (long e = offset; e + entry <= offset + length; e += entry) {
                    long tag = wide ? b.getLong((int) e) : b.getInt((int) e);
                    if (tag == 0) {
                        break;
                    }
                    if (tag == DT_NEEDED) {
                        long val = wide ? b.getLong((int) e + 8) : b.getInt((int) e + 4) & 0xFFFFFFFFL;
                        out.add(cString(b, Math.toIntExact(strOffset + val)));
                    }
                }
            }
            return out;
        } catch (IOException | RuntimeException e) {
            return List.of(); // not a readable ELF file: nothing known about it
        }
    }

    private static String cString(ByteBuffer b, int at) {
        int end = at;
        while (end < b.limit() && b.get(end) != 0) {
            end++;
        }
        byte[] s = new byte[end - at];
        b.get(at, s);
        return new String(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The MPICH-family library a program is built with ({@code libmpich}, or MPICH's {@code libmpi.so.12}), or null. */
    public static String mpichLibrary(List<String> needed) {
        for (String lib : needed) {
            if (lib.startsWith("libmpich") || lib.startsWith("libmpi.so.12")) {
                return lib;
            }
        }
        return null;
    }

    /**
     * How a program with these needed libraries is served under {@code --mpi auto}: PMIx for
     * Open MPI (or libpmix), PMI for MPICH and for a JVM, both side by side when its MPI cannot
     * be known before it starts (nothing MPI among them: an interpreter, a script, a wrapper, a
     * static binary, or no MPI at all). Both needs libpmix here; without it, PMI alone.
     */
    public static org.banyan.core.job.WireUp wireUp(List<String> needed) {
        if (pmixLibrary(needed) != null) {
            return org.banyan.core.job.WireUp.PMIX;
        }
        if (mpichLibrary(needed) != null || isJvm(needed) || !PmixServer.installed()) {
            return org.banyan.core.job.WireUp.PMI;
        }
        return org.banyan.core.job.WireUp.BOTH;
    }

    /** Whether the program is a JVM's launcher ({@code java}): Java ranks wire up through banyan-comm's PMI-2. */
    public static boolean isJvm(List<String> needed) {
        return needed.stream().anyMatch(lib -> lib.startsWith("libjli.so"));
    }

    /** The library that makes a program wire up through PMIx (Open MPI's, its OpenSHMEM, or libpmix itself), or null. */
    public static String pmixLibrary(List<String> needed) {
        for (String lib : needed) {
            if (lib.startsWith("libmpi.so.40") || lib.startsWith("libmpi_mpifh.so.40") || lib.startsWith("libmpi_usempi")
                    || lib.startsWith("liboshmem.so") || lib.startsWith("libopen-rte.so") || lib.startsWith("libpmix.so")) {
                return lib;
            }
        }
        return null;
    }
}
