package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A derived datatype (MPI_Type_contiguous, _vector, _indexed, _create_struct, their byte-strided
 * forms _create_hvector and _create_hindexed, and _create_resized): where the bytes of
 * one element lie relative to its start, and how far apart consecutive elements are (its extent).
 * A matrix's column, a halo of a 3-D block or the fields of a record go in one message: the
 * library packs them into one contiguous message and the receiver unpacks them into place, as
 * MPI libraries do for data that is not contiguous. Types nest ({@link #vector} of a
 * {@link #struct}...). Immutable.
 */
public final class Datatype {
    /** The byte runs of one element: offsets[i] to offsets[i] + lengths[i], in the order they travel. */
    private final long[] offsets;
    private final long[] lengths;
    private final long extent;
    private final long size;
    /** MPI's lower bound: only reported; where the bytes lie is in {@link #offsets}. */
    private final long lowerBound;
    /** The one primitive type every value of it is, or null where it mixes types (a struct of several): what reductions combine. */
    private final Elem basic;

    private Datatype(long[] offsets, long[] lengths, long extent, Elem basic) {
        this(offsets, lengths, extent, 0, basic);
    }

    private Datatype(long[] offsets, long[] lengths, long extent, long lowerBound, Elem basic) {
        this.offsets = offsets;
        this.lengths = lengths;
        this.extent = extent;
        this.size = Arrays.stream(lengths).sum();
        this.lowerBound = lowerBound;
        this.basic = basic;
    }

    /** One value of a primitive type. */
    public static Datatype of(Elem e) {
        return new Datatype(new long[] {0}, new long[] {e.bytes()}, e.bytes(), e);
    }

    /** The byte runs of one element, their starts (not to be changed). */
    long[] runOffsets() {
        return offsets;
    }

    /** The byte runs of one element, their lengths (not to be changed). */
    long[] runLengths() {
        return lengths;
    }

    /** The primitive type all its values are, or null when it mixes types. */
    public Elem basicType() {
        return basic;
    }

    /** MPI_Type_contiguous: {@code count} of {@code old} one after the other. */
    public static Datatype contiguous(int count, Datatype old) {
        return vector(count, 1, 1, old);
    }

    /**
     * MPI_Type_vector: {@code count} blocks of {@code blocklength} {@code old}s, the starts of
     * consecutive blocks {@code stride} {@code old}s apart (a column of a row-major matrix of
     * {@code n} columns: {@code vector(rows, 1, n, of(DOUBLE))}).
     */
    public static Datatype vector(int count, int blocklength, int stride, Datatype old) {
        if (count < 0 || blocklength < 0) {
            throw new IllegalArgumentException("vector of " + count + " blocks of " + blocklength);
        }
        int[] lengths = new int[count];
        long[] displacements = new long[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = blocklength;
            displacements[i] = (long) i * stride;
        }
        return indexedIn(lengths, displacements, old, old.extent);
    }

    /**
     * MPI_Type_create_hvector: as {@link #vector}, the starts of consecutive blocks
     * {@code byteStride} bytes apart (a field of an array of records).
     */
    public static Datatype hvector(int count, int blocklength, long byteStride, Datatype old) {
        if (count < 0 || blocklength < 0) {
            throw new IllegalArgumentException("hvector of " + count + " blocks of " + blocklength);
        }
        int[] lengths = new int[count];
        long[] displacements = new long[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = blocklength;
            displacements[i] = i * byteStride;
        }
        return hindexed(lengths, displacements, old);
    }

    /** MPI_Type_create_hindexed: block i is {@code blocklengths[i]} {@code old}s starting {@code byteDisplacements[i]} bytes in. */
    public static Datatype hindexed(int[] blocklengths, long[] byteDisplacements, Datatype old) {
        if (blocklengths.length != byteDisplacements.length) {
            throw new IllegalArgumentException(blocklengths.length + " block lengths for " + byteDisplacements.length + " displacements");
        }
        Runs runs = new Runs();
        long end = 0;
        for (int i = 0; i < blocklengths.length; i++) {
            if (blocklengths[i] < 0) {
                throw new IllegalArgumentException("block " + i + " has length " + blocklengths[i]);
            }
            for (int j = 0; j < blocklengths[i]; j++) {
                runs.add(old, byteDisplacements[i] + j * old.extent);
            }
            if (blocklengths[i] > 0) {
                end = Math.max(end, byteDisplacements[i] + blocklengths[i] * old.extent);
            }
        }
        return runs.type(end, old.basic);
    }

    /**
     * MPI_Type_create_resized: {@code old}'s bytes, with consecutive elements {@code extent} bytes
     * apart (a column type resized to one value, so that a scatter of columns interleaves).
     * {@code lowerBound} is kept and reported; a negative extent is not supported.
     */
    public static Datatype resized(Datatype old, long lowerBound, long extent) {
        if (extent < 0) {
            throw new IllegalArgumentException("a negative extent (" + extent + " bytes) is not supported");
        }
        return new Datatype(old.offsets, old.lengths, extent, lowerBound, old.basic);
    }

    /** MPI_Type_indexed: block i is {@code blocklengths[i]} {@code old}s starting {@code displacements[i]} {@code old}s in. */
    public static Datatype indexed(int[] blocklengths, int[] displacements, Datatype old) {
        if (blocklengths.length != displacements.length) {
            throw new IllegalArgumentException(blocklengths.length + " block lengths for " + displacements.length + " displacements");
        }
        return indexedIn(blocklengths, Arrays.stream(displacements).asLongStream().toArray(), old, old.extent);
    }

    /**
     * MPI_Type_create_struct: block i is {@code blocklengths[i]} of {@code types[i]} at byte
     * {@code byteDisplacements[i]} (a record's fields); the extent reaches the end of the last byte.
     */
    public static Datatype struct(int[] blocklengths, long[] byteDisplacements, Datatype[] types) {
        if (blocklengths.length != byteDisplacements.length || blocklengths.length != types.length) {
            throw new IllegalArgumentException("struct: " + blocklengths.length + " lengths, " + byteDisplacements.length
                    + " displacements, " + types.length + " types");
        }
        Runs runs = new Runs();
        long end = 0;
        for (int i = 0; i < types.length; i++) {
            for (int j = 0; j < blocklengths[i]; j++) {
                runs.add(types[i], byteDisplacements[i] + j * types[i].extent);
            }
            end = Math.max(end, byteDisplacements[i] + blocklengths[i] * types[i].extent);
        }
        Elem basic = types.length == 0 ? null : types[0].basic;
        for (Datatype t : types) {
            basic = t.basic == basic ? basic : null;
        }
        return runs.type(end, basic);
    }

    private static Datatype indexedIn(int[] blocklengths, long[] displacements, Datatype old, long unit) {
        Runs runs = new Runs();
        long end = 0;
        for (int i = 0; i < blocklengths.length; i++) {
            if (blocklengths[i] < 0) {
                throw new IllegalArgumentException("block " + i + " has length " + blocklengths[i]);
            }
            for (int j = 0; j < blocklengths[i]; j++) {
                runs.add(old, (displacements[i] + j) * unit);
            }
            if (blocklengths[i] > 0) {
                end = Math.max(end, (displacements[i] + blocklengths[i]) * unit);
            }
        }
        return runs.type(end, old.basic);
    }

    /** Byte runs being collected, adjacent ones merged. */
    private static final class Runs {
        final List<long[]> runs = new ArrayList<>();

        void add(Datatype t, long at) {
            for (int k = 0; k < t.offsets.length; k++) {
                long o = at + t.offsets[k];
                long[] last = runs.isEmpty() ? null : runs.getLast();
                if (last != null && last[0] + last[1] == o) {
                    last[1] += t.lengths[k];
                } else {
                    runs.add(new long[] {o, t.lengths[k]});
                }
            }
        }

        Datatype type(long extent, Elem basic) {
            for (long[] r : runs) {
                if (r[0] < 0) {
                    throw new IllegalArgumentException("a negative displacement (" + r[0] + " bytes) is not supported");
                }
            }
            return new Datatype(runs.stream().mapToLong(r -> r[0]).toArray(), runs.stream().mapToLong(r -> r[1]).toArray(), extent,
                    basic);
        }
    }

    /** MPI_Type_size: the bytes one element carries. */
    public long size() {
        return size;
    }

    /** MPI_Type_get_extent: how far apart consecutive elements start, in bytes. */
    public long extent() {
        return extent;
    }

    /** MPI_Type_get_extent's lower bound: 0 but for a {@link #resized} type. */
    public long lowerBound() {
        return lowerBound;
    }

    /** The bytes {@code count} elements span in a buffer: from the first's start to the last's last byte. */
    long span(int count) {
        if (count == 0) {
            return 0;
        }
        long last = 0;
        for (int k = 0; k < offsets.length; k++) {
            last = Math.max(last, offsets[k] + lengths[k]);
        }
        return (count - 1) * extent + last;
    }

    /** MPI_Pack: {@code count} elements of {@code buffer}, contiguous. */
    public MemorySegment pack(MemorySegment buffer, int count) {
        check(buffer, count);
        MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(size * count)]);
        long at = 0;
        for (int e = 0; e < count; e++) {
            for (int k = 0; k < offsets.length; k++) {
                MemorySegment.copy(buffer, e * extent + offsets[k], out, at, lengths[k]);
                at += lengths[k];
            }
        }
        return out;
    }

    /** MPI_Unpack: {@code packed} (what {@link #pack} made, or its first bytes) into place in {@code buffer}. */
    public void unpack(MemorySegment packed, MemorySegment buffer, int count) {
        check(buffer, count);
        long at = 0;
        for (int e = 0; e < count && at < packed.byteSize(); e++) {
            for (int k = 0; k < offsets.length && at < packed.byteSize(); k++) {
                long n = Math.min(lengths[k], packed.byteSize() - at);
                MemorySegment.copy(packed, at, buffer, e * extent + offsets[k], n);
                at += n;
            }
        }
    }

    /** That {@code buffer} holds {@code count} elements of this type. */
    void check(MemorySegment buffer, int count) {
        if (count < 0 || span(count) > buffer.byteSize()) {
            throw new IllegalArgumentException(count + " elements of this type span " + span(count) + " bytes; the buffer has "
                    + buffer.byteSize());
        }
    }
}
