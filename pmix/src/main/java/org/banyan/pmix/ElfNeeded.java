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

    /** The most of a dynamic section or its strings read: a few KB in any real program. */
    private static final long MAX_SECTION = 16 << 20;

    private ElfNeeded() {}

    /**
     * The program's needed libraries. Reads only the header, the section headers, the dynamic
     * section and its string table (a few kilobytes) with positioned reads: mapping the file
     * instead cost a fresh JVM 15 ms on the path to every launch.
     */
    public static List<String> of(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 64 || size > Integer.MAX_VALUE) {
                return List.of();
            }
            ByteBuffer h = read(ch, 0, 64);
            if (h.getInt(0) != 0x7F454C46) { // \x7fELF
                return List.of();
            }
            boolean wide = h.get(4) == 2;
            ByteOrder order = h.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            h.order(order);
            long shoff = wide ? h.getLong(0x28) : h.getInt(0x20) & 0xFFFFFFFFL;
            int shentsize = h.getShort(wide ? 0x3A : 0x2E) & 0xFFFF;
            int shnum = h.getShort(wide ? 0x3C : 0x30) & 0xFFFF;
            if (shnum == 0 || shentsize < (wide ? 0x40 : 0x28) || shoff + (long) shnum * shentsize > size
                    || (long) shnum * shentsize > MAX_SECTION) {
                return List.of();
            }
            ByteBuffer sections = read(ch, shoff, shnum * shentsize).order(order);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < shnum; i++) {
                int sh = i * shentsize;
                if (sections.getInt(sh + 4) != SHT_DYNAMIC) {
                    continue;
                }
                long offset = wide ? sections.getLong(sh + 0x18) : sections.getInt(sh + 0x10) & 0xFFFFFFFFL;
                long length = wide ? sections.getLong(sh + 0x20) : sections.getInt(sh + 0x14) & 0xFFFFFFFFL;
                int link = sections.getInt(sh + (wide ? 0x28 : 0x18));
                if (link < 0 || link >= shnum || offset + length > size) {
                    continue;
                }
                int str = link * shentsize;
                long strOffset = wide ? sections.getLong(str + 0x18) : sections.getInt(str + 0x10) & 0xFFFFFFFFL;
                long strLength = wide ? sections.getLong(str + 0x20) : sections.getInt(str + 0x14) & 0xFFFFFFFFL;
                if (strOffset + strLength > size || length > MAX_SECTION || strLength > MAX_SECTION) {
                    continue; // a file that claims more than any program's is not read whole
                }
                ByteBuffer dyn = read(ch, offset, (int) length).order(order);
                ByteBuffer strings = read(ch, strOffset, (int) strLength);
                int entry = wide ? 16 : 8;
                for (int e = 0; e + entry <= length; e += entry) {
                    long tag = wide ? dyn.getLong(e) : dyn.getInt(e);
                    if (tag == 0) {
                        break;
                    }
                    if (tag == DT_NEEDED) {
                        long val = wide ? dyn.getLong(e + 8) : dyn.getInt(e + 4) & 0xFFFFFFFFL;
                        out.add(cString(strings, Math.toIntExact(val)));
                    }
                }
            }
            return out;
        } catch (IOException | RuntimeException e) {
            return List.of(); // not a readable ELF file: nothing known about it
        }
    }

    /** {@code length} bytes of the file from {@code at} (fewer at its end). */
    private static ByteBuffer read(FileChannel ch, long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                break;
            }
        }
        return b.flip();
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
     * static binary, or no MPI at all). Whether libpmix is installed is not asked here: loading
     * it to know takes 20 ms, and a daemon without it serves such a job PMI alone.
     */
    public static org.banyan.core.job.WireUp wireUp(List<String> needed) {
        if (pmixLibrary(needed) != null) {
            return org.banyan.core.job.WireUp.PMIX;
        }
        if (mpichLibrary(needed) != null || isJvm(needed)) {
            return org.banyan.core.job.WireUp.PMI;
        }
        return org.banyan.core.job.WireUp.BOTH;
    }

    /** Whether libpmix is installed here; cheap where it is (PmixServer's own check starts the FFM linker first). */
    public static boolean pmixInstalled() {
        return PmixLibrary.installed();
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
