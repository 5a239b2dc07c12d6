/* Gives Open MPI's topo/treematch a communication matrix (a .mat file: rows of numbers) through
 * MPI_Dist_graph_create with reorder, and prints, per process (old rank), the rank TreeMatch gave
 * it, and the call's time. Used by bench/place-ompi. Usage: mpirun ... treematch-ompi MATRIX.mat */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); MPI_Abort(MPI_COMM_WORLD, 2); }
    double v;
    int *dest = malloc(sizeof(int) * size), *w = malloc(sizeof(int) * size), deg = 0;
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++) {
            if (fscanf(f, "%lf", &v) != 1) { fprintf(stderr, "short matrix\n"); MPI_Abort(MPI_COMM_WORLD, 2); }
            if (i == rank && j != i && v > 0) { dest[deg] = j; w[deg] = (int) (v > 2e9 ? 2e9 : v); deg++; }
        }
    fclose(f);
    MPI_Comm g;
    int sources[1] = {rank}, degrees[1] = {deg};
    double t0 = MPI_Wtime();
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, sources, degrees, dest, w, MPI_INFO_NULL, 1, &g);
    double t = MPI_Wtime() - t0;
    int newrank;
    MPI_Comm_rank(g, &newrank);
    int *all = rank == 0 ? malloc(sizeof(int) * size) : NULL;
    MPI_Gather(&newrank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("# seconds %.6f\n", t);
        for (int old = 0; old < size; old++) printf("%d %d\n", old, all[old]);
    }
    MPI_Finalize();
    return 0;
}
