package org.banyan.comm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A cartesian topology over a communicator (MPI_Cart_create and its queries): ranks laid out on
 * a grid in row-major order (the last dimension varies fastest, as MPI lays them out), each
 * dimension periodic or not. {@link #shift} gives a stencil's neighbours, {@link Comm#PROC_NULL}
 * past a non-periodic edge, so a halo exchange needs no special case for the border.
 *
 * <p>With {@code reorder} ({@link #create(Comm, int[], boolean[], boolean)}) the grid's ranks are
 * dealt out to the processes by TreeMatch, on the machine's tree and where each process is bound
 * ({@link TopologyReorder}), so that grid neighbours sit close; {@link #reorderNote()} says what
 * was done. Without it the grid keeps the ranks' order (the placement can also be made at launch,
 * by TreeMatch on the job's monitored communication: {@code banyan run --map-by treematch:MATRIX}).
 *
 * <p>The neighbour collectives ({@link NeighborCollectives}) run on the grid as MPI defines them
 * for a cartesian communicator: each rank's neighbours are, dimension by dimension, the rank one
 * step back and the rank one step forward ({@link #shift}(d, 1)'s source, then its dest), both
 * sources and destinations; a block sent to the one step back arrives in that rank's
 * forward place, and the reverse, even where both are the same rank (a periodic dimension of 2).
 */
public final class Cartesian extends NeighborNonBlocking {
    /**
     * A message to the neighbour one step back goes under the operation's tag plus this, so that
     * both messages between the two ranks of a periodic dimension of 2 find their places.
     */
    private static final int BACKWARD = 10;

    /** A rank's neighbours along one dimension: it receives from {@code source} and sends to {@code dest} (MPI_Cart_shift). */
    public record Shift(int source, int dest) {}

    private final Comm comm;
    private final int[] dims;
    private final boolean[] periods;
    private final String reorderNote;
    private int[] neighbours;

    private Cartesian(Comm comm, int[] dims, boolean[] periods, String reorderNote) {
        this.comm = comm;
        this.dims = dims;
        this.periods = periods;
        this.reorderNote = reorderNote;
    }

    /**
     * MPI_Cart_create over {@code parent}: a new communicator of the first product-of-dims ranks
     * laid out on the grid; a rank beyond them gets null (MPI_COMM_NULL). Collective over
     * {@code parent}.
     */
    public static Cartesian create(Comm parent, int[] dims, boolean[] periods) {
        return create(parent, dims, periods, false);
    }

    /**
     * MPI_Cart_create with {@code reorder}: when true, the grid's ranks are dealt out by TreeMatch
     * so that neighbours on the grid sit close on the machine (the processes stay where they run;
     * each learns its new rank); when the ranks are not bound to CPUs, or share them, the order
     * is kept and {@link #reorderNote()} says why. Collective over {@code parent}.
     */
    public static Cartesian create(Comm parent, int[] dims, boolean[] periods, boolean reorder) {
        if (dims.length == 0 || dims.length != periods.length) {
            throw new IllegalArgumentException("a cartesian topology needs a size and a periodicity per dimension, got "
                    + dims.length + " sizes and " + periods.length + " periodicities");
        }
        long cells = 1;
        for (int d : dims) {
            if (d < 1) {
                throw new IllegalArgumentException("dimension sizes must be positive: " + Arrays.toString(dims));
            }
            cells *= d;
        }
        if (cells > parent.size()) {
            throw new IllegalArgumentException("a grid of " + Arrays.toString(dims) + " needs " + cells + " ranks; "
                    + parent.name() + " has " + parent.size());
        }
        Comm c = parent.split(parent.rank() < cells ? 0 : -1, parent.rank());
        if (c == null || !reorder) {
            return c == null ? null : new Cartesian(c, dims.clone(), periods.clone(), null);
        }
        int[] d = dims.clone();
        boolean[] p = periods.clone();
        TopologyReorder.Result r = TopologyReorder.run(c, () -> Reordering.grid(d, p));
        Comm ordered = c.split(0, r.newRank());
        c.close();
        return new Cartesian(ordered, d, p, r.note());
    }

    /** What {@code reorder} did, in a line ("reordered by TreeMatch: ..." or "order kept: why"), or null when it was not asked. */
    public String reorderNote() {
        return reorderNote;
    }

    /**
     * MPI_Dims_create: {@code nodes} split into {@code ndims} sizes as equal as they can be, largest
     * first (12 in 2: 4 × 3; 6 in 3: 3 × 2 × 1).
     */
    public static int[] dims(int nodes, int ndims) {
        if (nodes < 1 || ndims < 1) {
            throw new IllegalArgumentException("dims of " + nodes + " nodes in " + ndims + " dimensions");
        }
        List<Integer> primes = new ArrayList<>();
        int n = nodes;
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                primes.add(p);
                n /= p;
            }
        }
        if (n > 1) {
            primes.add(n);
        }
        primes.sort((a, b) -> b - a);
        int[] d = new int[ndims];
        Arrays.fill(d, 1);
        for (int p : primes) { // each prime factor to the smallest size so far
            int smallest = 0;
            for (int i = 1; i < ndims; i++) {
                if (d[i] < d[smallest]) {
                    smallest = i;
                }
            }
            d[smallest] *= p;
        }
        Arrays.sort(d);
        for (int i = 0; i < ndims / 2; i++) {
            int t = d[i];
            d[i] = d[ndims - 1 - i];
            d[ndims - 1 - i] = t;
        }
        return d;
    }

    /** The grid's communicator: ranks numbered as the grid lays them out. */
    @Override
    public Comm comm() {
        return comm;
    }

    public int[] dims() {
        return dims.clone();
    }

    public boolean[] periods() {
        return periods.clone();
    }

    /** MPI_Cart_coords. */
    public int[] coords(int rank) {
        comm.checkRank(rank, "rank");
        int[] c = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            c[i] = rank % dims[i];
            rank /= dims[i];
        }
        return c;
    }

    /** This rank's place on the grid. */
    public int[] coords() {
        return coords(comm.rank());
    }

    /**
     * MPI_Cart_rank: the rank at {@code coords}, wrapped around periodic dimensions;
     * {@link Comm#PROC_NULL} outside a non-periodic one.
     */
    public int rank(int[] coords) {
        if (coords.length != dims.length) {
            throw new IllegalArgumentException(coords.length + " coordinates for a grid of " + dims.length + " dimensions");
        }
        int r = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (c < 0 || c >= dims[i]) {
                if (!periods[i]) {
                    return Comm.PROC_NULL;
                }
                c = Math.floorMod(c, dims[i]);
            }
            r = r * dims[i] + c;
        }
        return r;
    }

    /** MPI_Cart_shift: the ranks {@code disp} steps back and forward along {@code dim}. */
    public Shift shift(int dim, int disp) {
        if (dim < 0 || dim >= dims.length) {
            throw new IllegalArgumentException("dimension " + dim + " of a grid of " + dims.length);
        }
        int[] here = coords();
        int[] back = here.clone();
        int[] ahead = here.clone();
        back[dim] -= disp;
        ahead[dim] += disp;
        return new Shift(rank(back), rank(ahead));
    }

    /**
     * MPI_Cart_sub: the grids of the dimensions {@code keep} marks, one per place along the others
     * (a row or column communicator of a 2-D grid). Collective.
     */
    public Cartesian sub(boolean[] keep) {
        if (keep.length != dims.length) {
            throw new IllegalArgumentException(keep.length + " flags for a grid of " + dims.length + " dimensions");
        }
        int[] here = coords();
        int color = 0;
        int key = 0;
        List<Integer> keptDims = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            if (keep[i]) {
                key = key * dims[i] + here[i];
                keptDims.add(i);
            } else {
                color = color * dims[i] + here[i];
            }
        }
        Comm c = comm.split(color, key);
        int[] d = keptDims.stream().mapToInt(i -> dims[i]).toArray();
        boolean[] p = new boolean[d.length];
        for (int i = 0; i < d.length; i++) {
            p[i] = periods[keptDims.get(i)];
        }
        if (d.length == 0) { // MPI: a grid of no dimension, of the rank alone
            d = new int[] {1};
            p = new boolean[] {false};
        }
        return new Cartesian(c, d, p, null);
    }

    /** MPI's neighbour order on a grid: per dimension, one step back then one step forward. */
    private int[] neighbours() {
        if (neighbours == null) {
            int[] n = new int[2 * dims.length];
            for (int d = 0; d < dims.length; d++) {
                Shift s = shift(d, 1);
                n[2 * d] = s.source();
                n[2 * d + 1] = s.dest();
            }
            neighbours = n;
        }
        return neighbours;
    }

    @Override
    int[] sourceRanks() {
        return neighbours();
    }

    @Override
    int[] destinationRanks() {
        return neighbours();
    }

    @Override
    int sendTag(int i, int base) {
        return i % 2 == 0 ? base + BACKWARD : base;
    }

    @Override
    int receiveTag(int j, int base) {
        return j % 2 == 0 ? base : base + BACKWARD;
    }
}
