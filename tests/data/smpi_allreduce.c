/* smpi_allreduce.c — one MPI_Allreduce of SIZE bytes (argv[1]) timed as the
 * span from the last rank's start to the last rank's end (the collective
 * cannot begin before every rank has entered it), for tests/cli_smpirun.sh: SimGrid's own
 * SMPI, run on the platform `collsim platform xml` writes, must time a ring
 * all-reduce as collsim does. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long bytes = atol(argv[1]);
    long count = bytes / 8;
    double *in = calloc(count, 8), *out = calloc(count, 8);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double end = MPI_Wtime();
    double mine[2] = {start, end}, last[2];
    MPI_Reduce(mine, last, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%.17g\n", last[1] - last[0]);
    MPI_Finalize();
    return 0;
}
