/*
 * pmi2: exercises the PMI-2 interface through a real client library, Slurm's libpmi2
 * (Debian: libpmi2-0-dev; build with: cc -o pmi2 pmi2.c -I/usr/include/slurm -lpmi2).
 * Each rank: init, job id, the process mapping, a node attribute that local rank 0 puts and the
 * others wait for, a put and a fence, a get of its ring neighbour's value naming the rank that
 * put it, and the name service: rank 0 publishes, everyone looks the name up, rank 0 removes it.
 * Every rank prints one line: "pmi2 rank R of N ok" or "pmi2 rank R FAILED: what".
 */
#include <pmi2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank = -1;

static void check(int rc, const char *what) {
    if (rc != PMI2_SUCCESS) {
        printf("pmi2 rank %d FAILED: %s (rc %d)\n", rank, what, rc);
        fflush(stdout);
        exit(1);
    }
}

int main(void) {
    int spawned, size, appnum, found, len;
    char jobid[256], value[1024], want[64], key[64];

    check(PMI2_Init(&spawned, &size, &rank, &appnum), "PMI2_Init");
    check(PMI2_Job_GetId(jobid, sizeof jobid), "PMI2_Job_GetId");
    check(PMI2_Info_GetJobAttr("PMI_process_mapping", value, sizeof value, &found), "GetJobAttr");
    if (!found || strncmp(value, "(vector,", 8) != 0) check(-1, "PMI_process_mapping");

    /* The lowest rank of each host puts a node attribute; the others wait for it. */
    const char *local = getenv("MPI_LOCALRANKID"); /* set by Banyan and by Hydra */
    int local_rank = local ? atoi(local) : 0;
    if (local_rank == 0) {
        snprintf(value, sizeof value, "shm-of-%d", rank);
        check(PMI2_Info_PutNodeAttr("segment", value), "PutNodeAttr");
    }
    check(PMI2_Info_GetNodeAttr("segment", value, sizeof value, &found, 1), "GetNodeAttr");
    if (!found || strncmp(value, "shm-of-", 7) != 0) check(-1, "node attribute");

    snprintf(key, sizeof key, "k%d", rank);
    snprintf(value, sizeof value, "card;of;%d", rank); /* ';' must survive the PMI-2 escaping */
    check(PMI2_KVS_Put(key, value), "PMI2_KVS_Put");
    check(PMI2_KVS_Fence(), "PMI2_KVS_Fence");
    int next = (rank + 1) % size;
    snprintf(key, sizeof key, "k%d", next);
    check(PMI2_KVS_Get(jobid, next, key, value, sizeof value, &len), "PMI2_KVS_Get");
    snprintf(want, sizeof want, "card;of;%d", next);
    if (strcmp(value, want) != 0) check(-1, "neighbour's value");

    if (rank == 0) check(PMI2_Nameserv_publish("banyan-svc", NULL, "port-0"), "publish");
    check(PMI2_KVS_Fence(), "second fence");
    check(PMI2_Nameserv_lookup("banyan-svc", NULL, value, sizeof value), "lookup");
    if (strcmp(value, "port-0") != 0) check(-1, "looked-up port");
    check(PMI2_KVS_Fence(), "third fence");
    if (rank == 0) {
        check(PMI2_Nameserv_unpublish("banyan-svc", NULL), "unpublish");
        if (PMI2_Nameserv_lookup("banyan-svc", NULL, value, sizeof value) == PMI2_SUCCESS) check(-1, "lookup after unpublish");
    }
    check(PMI2_Finalize(), "PMI2_Finalize");
    printf("pmi2 rank %d of %d ok\n", rank, size);
    return 0;
}
