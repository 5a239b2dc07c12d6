/* A plain MPI program: nothing in it knows about Banyan. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, len;
    char host[MPI_MAX_PROCESSOR_NAME];
    long mine, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    mine = rank;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    printf("hello from rank %d of %d on %s (sum of ranks: %ld)\n", rank, size, host, sum);
    MPI_Finalize();
    return 0;
}
