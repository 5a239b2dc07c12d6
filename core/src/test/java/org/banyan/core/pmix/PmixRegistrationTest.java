package org.banyan.core.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.junit.jupiter.api.Test;

/** What a daemon registers for a PMIx job, from its own share of the map. */
class PmixRegistrationTest {
    /** Two applications, 3 + 2 ranks, by slot over hosts of 2, 0 and 4 slots: a:0,1  c:2,3,4. */
    static final JobDescription JOB = new JobDescription(4, List.of(
            new AppContext("./a", List.of(), 3, Map.of(), null), new AppContext("./b", List.of(), 2, Map.of(), null)),
            List.of(new Node("a", 2), new Node("b", 0), new Node("c", 4)), MappingPolicy.SLOT, false, 0, "/", Modex.LAZY)
            .withPmix("banyan.42.1");

    static Map<String, Object> top(PmixRegistration r) {
        return r.info().stream().filter(i -> !i.key().equals("pmix.pdata"))
                .collect(Collectors.toMap(PmixInfo::key, PmixInfo::value));
    }

    static List<Map<String, Object>> procs(PmixRegistration r) {
        return r.info().stream().filter(i -> i.key().equals("pmix.pdata"))
                .map(i -> i.infos().stream().collect(Collectors.toMap(PmixInfo::key, PmixInfo::value))).toList();
    }

    @Test
    void jobNodeAndProcessLevelsForTheSecondHostWithRanks() {
        PmixRegistration r = PmixRegistration.of(JOB, RankMap.of(JOB), 2);
        assertThat(r.nspace()).isEqualTo("banyan.42.1");
        assertThat(r.ranks()).containsExactly(2, 3, 4);
        Map<String, Object> t = top(r);
        // the universe is the hosts' 6 slots, as mpirun's: 5 ranks may spawn one more
        assertThat(t).containsEntry("pmix.jobid", "banyan.42.1").containsEntry("pmix.job.size", 5)
                .containsEntry("pmix.univ.size", 6).containsEntry("pmix.num.nodes", 2).containsEntry("pmix.job.napps", 2)
                .containsEntry("pmix.nmap", "raw:a,c").containsEntry("pmix.pmap", "raw:0,1;2,3,4")
                .containsEntry("pmix.hname", "c").containsEntry("pmix.nodeid", 1).containsEntry("pmix.local.size", 3)
                .containsEntry("pmix.lpeers", "2,3,4").containsEntry("pmix.lldr", 2)
                .doesNotContainKey("pmix.app.size");
        List<Map<String, Object>> p = procs(r);
        assertThat(p).hasSize(3);
        assertThat(p.get(0)).containsEntry("pmix.rank", 2).containsEntry("pmix.lrank", 0).containsEntry("pmix.appnum", 0)
                .containsEntry("pmix.apprank", 2).containsEntry("pmix.hname", "c").containsEntry("pmix.nodeid", 1);
        assertThat(p.get(2)).containsEntry("pmix.rank", 4).containsEntry("pmix.lrank", 2).containsEntry("pmix.nrank", 2)
                .containsEntry("pmix.appnum", 1).containsEntry("pmix.apprank", 1).containsEntry("pmix.grank", 4);
    }

    @Test
    void typesAreThoseOpenMpiReads() {
        PmixRegistration r = PmixRegistration.of(JOB, RankMap.of(JOB), 0);
        Map<String, PmixInfo.Type> types = r.info().stream().collect(Collectors.toMap(PmixInfo::key, PmixInfo::type, (a, b) -> a));
        assertThat(types).containsEntry("pmix.job.size", PmixInfo.Type.UINT32).containsEntry("pmix.lldr", PmixInfo.Type.PROC_RANK)
                .containsEntry("pmix.pdata", PmixInfo.Type.INFO_ARRAY);
        PmixInfo local = r.info().stream().filter(i -> i.key().equals("pmix.pdata")).findFirst().orElseThrow().infos()
                .stream().filter(i -> i.key().equals("pmix.lrank")).findFirst().orElseThrow();
        assertThat(local.type()).isEqualTo(PmixInfo.Type.UINT16);
    }

    @Test
    void aHostWithoutRanksRegistersTheJobOnlyAndAPmiJobIsNotRegistered() {
        JobDescription job = new JobDescription(1, List.of(new AppContext("./a", List.of(), 2, Map.of(), null)),
                List.of(new Node("a", 2), new Node("b", 2)), MappingPolicy.SLOT, false, 0, "/", Modex.LAZY);
        PmixRegistration r = PmixRegistration.of(job.withPmix("n"), RankMap.of(job), 1);
        assertThat(r.ranks()).isEmpty();
        assertThat(top(r)).containsEntry("pmix.nmap", "raw:a").doesNotContainKey("pmix.lpeers");
        assertThat(procs(r)).isEmpty();
        assertThatThrownBy(() -> PmixRegistration.of(job, RankMap.of(job), 0)).hasMessageContaining("does not wire up through PMIx");
        assertThatThrownBy(() -> new PmixInfo("k", PmixInfo.Type.UINT32, "x")).hasMessageContaining("cannot hold");
    }

    /** What mpirun registers besides (Open MPI 4.1 reads the locality of bound peers; Open MPI 5 the flag). */
    @Test
    void policiesOversubscriptionAndBoundRanksCpusAndLocality() {
        JobDescription packed = new JobDescription(1, List.of(new AppContext("./a", List.of(), 3, Map.of(), null)),
                List.of(new Node("a", 2)), MappingPolicy.SLOT, true, 0, "/", Modex.LAZY).withPmix("n");
        PmixRegistration r = PmixRegistration.of(packed, RankMap.of(packed), 0, rank -> new int[] {rank}, cpus -> "HT" + cpus[0]);
        assertThat(top(r)).containsEntry("pmix.ndosub", true).containsEntry("pmix.mapby", "BYSLOT:OVERSUBSCRIBE")
                .containsEntry("pmix.rankby", "SLOT").containsEntry("pmix.bindto", "NONE").as("the slots, as mpirun's").containsEntry("pmix.max.size", 2);
        assertThat(procs(r).get(2)).containsEntry("pmix.cpuset", "2").containsEntry("pmix.locstr", "HT2");
        PmixRegistration roomy = PmixRegistration.of(JOB, RankMap.of(JOB), 2);
        assertThat(top(roomy)).doesNotContainKey("pmix.ndosub").containsEntry("pmix.max.size", 6);
        assertThat(procs(roomy).getFirst()).doesNotContainKeys("pmix.cpuset", "pmix.locstr");
    }
}
