/*
 * What an Open MPI rank reads at start-up, printed one "name=value" a line so that two launchers
 * can be compared (bench/startup-values runs it under mpirun and banyan run): the launcher's
 * environment variables that Open MPI 4.1 and 5 read, and the PMIx attributes its start-up asks
 * the server for, each job-, node- or process-level as PMIx keeps it. Built with mpicc.openmpi
 * and -lpmix; run as a PMIx client only (no MPI_Init), so the values are the launcher's alone.
 */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *VARS[] = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_NODE_RANK", "OMPI_UNIVERSE_SIZE", "OMPI_MCA_mpi_oversubscribe",
    "OMPI_MCA_orte_precondition_transports", "OMPI_MCA_ess_base_num_procs", "OMPI_APP_CTX_NUM_PROCS",
    "OMPI_FIRST_RANKS", "OMPI_NUM_APP_CTX", "OMPI_MCA_initial_wdir", "OMPI_MCA_orte_app_num", "PMIX_RANK",
    "OMPI_MCA_mpi_yield_when_idle", "OMPI_MCA_orte_num_nodes", "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
    "OMPI_MCA_pmix", "OMPI_MCA_ess", "PMIX_SECURITY_MODE", "PMIX_GDS_MODULE", "PMIX_HOSTNAME", NULL};

/* key, 1 for the job's (wildcard rank), 0 for the calling process's */
static const struct { const char *key; int job; } KEYS[] = {
    {PMIX_UNIV_SIZE, 1}, {PMIX_JOB_SIZE, 1}, {PMIX_MAX_PROCS, 1}, {PMIX_NUM_NODES, 1}, {PMIX_JOB_NUM_APPS, 1},
    {PMIX_NODE_OVERSUBSCRIBED, 1}, {PMIX_LOCAL_SIZE, 1}, {PMIX_NODE_SIZE, 1}, {PMIX_LOCAL_PEERS, 1},
    {PMIX_LOCALLDR, 1}, {PMIX_NUM_SLOTS, 1}, {PMIX_SPAWNED, 1}, {PMIX_APP_SIZE, 1}, {PMIX_APPLDR, 1},
    {PMIX_MAPBY, 1}, {PMIX_RANKBY, 1}, {PMIX_BINDTO, 1},
    {PMIX_LOCAL_RANK, 0}, {PMIX_NODE_RANK, 0}, {PMIX_APPNUM, 0}, {PMIX_APP_RANK, 0}, {PMIX_GLOBAL_RANK, 0},
    {PMIX_NODEID, 0}, {PMIX_REINCARNATION, 0}, {PMIX_PACKAGE_RANK, 0}, {PMIX_CPUSET, 0}, {PMIX_LOCALITY_STRING, 0},
    {PMIX_HOSTNAME, 0}, {NULL, 0}};

static void print(const char *key, const pmix_value_t *v) {
    switch (v->type) {
    case PMIX_STRING: printf("%s=%s\n", key, v->data.string ? v->data.string : "(null)"); break;
    case PMIX_BOOL: printf("%s=%s\n", key, v->data.flag ? "true" : "false"); break;
    case PMIX_UINT32: printf("%s=%u\n", key, v->data.uint32); break;
    case PMIX_UINT16: printf("%s=%u\n", key, v->data.uint16); break;
    case PMIX_INT: printf("%s=%d\n", key, v->data.integer); break;
    case PMIX_PROC_RANK: printf("%s=%u\n", key, v->data.rank); break;
    case PMIX_SIZE: printf("%s=%zu\n", key, v->data.size); break;
    case PMIX_UINT64: printf("%s=%lu\n", key, (unsigned long) v->data.uint64); break;
    default: printf("%s=(type %d)\n", key, v->type);
    }
}

int main(void) {
    for (int i = 0; VARS[i]; i++) {
        const char *v = getenv(VARS[i]);
        printf("env %s=%s\n", VARS[i], v ? v : "(unset)");
    }
    pmix_proc_t me, job;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
        printf("PMIx_Init failed\n");
        return 1;
    }
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t opt;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    for (int i = 0; KEYS[i].key; i++) {
        pmix_value_t *v = NULL;
        if (PMIx_Get(KEYS[i].job ? &job : &me, KEYS[i].key, &opt, 1, &v) == PMIX_SUCCESS && v) {
            printf("pmix ");
            print(KEYS[i].key, v);
            PMIX_VALUE_RELEASE(v);
        } else {
            printf("pmix %s=(none)\n", KEYS[i].key);
        }
    }
    /* the machine's topology as the server shares it (hwloc XML, and hwloc's shared memory): a
     * rank that finds none discovers the machine itself; printed as given or not */
    static const char *TOPOLOGY[] = {PMIX_HWLOC_XML_V2, PMIX_HWLOC_XML_V1, PMIX_HWLOC_SHMEM_FILE, NULL};
    for (int i = 0; TOPOLOGY[i]; i++) {
        pmix_value_t *v = NULL;
        int given = PMIx_Get(&job, TOPOLOGY[i], &opt, 1, &v) == PMIX_SUCCESS && v && v->type == PMIX_STRING
                    && v->data.string && v->data.string[0];
        printf("topo %s=%s\n", TOPOLOGY[i], given ? "given" : "(none)");
        if (v) {
            PMIX_VALUE_RELEASE(v);
        }
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
