package org.banyan.cli.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.banyan.cli.options.InputFiles;
import org.banyan.cli.options.UsageException;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.RankPlacement;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.topo.CpuBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunArgumentsTest {
    @TempDir
    Path dir;

    RunRequest parse(String... args) throws UsageException {
        return new RunArguments(Map.of("PATH", "/usr/bin:/bin", "HOME", "/root"), dir).parse(List.of(args));
    }

    String error(String... args) {
        try {
            parse(args);
        } catch (UsageException e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted: " + String.join(" ", args));
    }

    /** A rank count past what one job may have is a usage error, not an OutOfMemoryError while mapping it. */
    @Test
    void moreRanksThanAJobMayHaveIsAUsageError() {
        assertThat(error("-n", "2000000000", "--oversubscribe", "true"))
                .isEqualTo("a job of 2000000000 ranks is more than Banyan runs as one job (at most 16777216)");
        assertThat(error("--oversubscribe", "-n", "2000000000", "true", ":", "-n", "2000000000", "true"))
                .isEqualTo("a job of 4000000000 ranks is more than Banyan runs as one job (at most 16777216)");
    }

    @Test
    void mpirunStyleOptions() throws Exception {
        RunRequest r = parse("-np", "4", "--oversubscribe", "--map-by", "node", "-x", "HOME", "-x", "A=b=c",
                "--tag-output", "--timestamp-output", "--timeout", "2.5", "--wdir", dir.toString(), "echo", "-n", "x");
        assertThat(r.job().size()).isEqualTo(4);
        assertThat(r.job().mapping()).isEqualTo(MappingPolicy.NODE);
        assertThat(r.job().oversubscribe()).isTrue();
        assertThat(r.job().apps().getFirst().args()).containsExactly("-n", "x");
        assertThat(r.job().apps().getFirst().env()).containsEntry("HOME", "/root").containsEntry("A", "b=c");
        assertThat(r.job().apps().getFirst().workdir()).isEqualTo(dir.toString());
        assertThat(r.output().tag()).isTrue();
        assertThat(r.output().timestamp()).isTrue();
        assertThat(r.settings().timeoutMillis()).isEqualTo(2500);
        assertThat(r.agent()).isEqualTo(new LaunchAgent.InProcess());
        assertThat(r.topology()).hasToString("radix:32");
    }

    @Test
    void hydraEnvironmentOptionsSetTheJobsOrOneContextsVariables() throws Exception {
        // as mpiexec.hydra 4.0.2 does here: -env belongs to its context and wins over -genv,
        // wherever each is written; -genvlist leaves a name that is not set unset
        RunRequest r = parse("--oversubscribe", "-genv", "A", "g", "-genvlist", "HOME,NOPE_NOT_SET", "-n", "1", "-env", "A", "l", "true",
                ":", "-n", "1", "-envlist", "PATH", "true", ":", "-n", "1", "-envall", "true");
        List<Map<String, String>> envs = r.job().apps().stream().map(a -> a.env()).toList();
        assertThat(envs.get(0)).containsExactlyInAnyOrderEntriesOf(Map.of("A", "l", "HOME", "/root"));
        assertThat(envs.get(1)).containsExactlyInAnyOrderEntriesOf(Map.of("A", "g", "HOME", "/root", "PATH", "/usr/bin:/bin"));
        assertThat(envs.get(2)).containsEntry("A", "g").containsEntry("PATH", "/usr/bin:/bin");
        assertThat(parse("-genvall", "-n", "2", "true").job().apps().getFirst().env())
                .containsExactlyInAnyOrderEntriesOf(Map.of("PATH", "/usr/bin:/bin", "HOME", "/root"));
        assertThat(parse("-n", "1", "-env", "A", "x y", "true", ":", "-n", "1", "true").job().apps().get(1).env()).isEmpty();

        assertThat(error("-genv", "A=1", "true")).isEqualTo("-genv 'A=1': not an environment variable name (-genv takes "
                + "NAME VALUE; or give -x NAME=VALUE)");
        assertThat(error("-genv", "A")).isEqualTo("option -genv needs two values: -genv NAME VALUE");
        assertThat(error("-envlist", "HOME,,PATH", "true")).isEqualTo("-envlist '': not an environment variable name");
    }

    /** As Open MPI's mpirun: each --mca reaches the ranks as OMPI_MCA_NAME; mpirun's own frameworks are refused. */
    @Test
    void mcaParametersReachTheRanksAsOpenMpisVariables() throws Exception {
        assertThat(parse("--mca", "btl", "self,vader", "-mca", "btl_tcp_if_include", "lo", "true").job().apps().getFirst().env())
                .containsEntry("OMPI_MCA_btl", "self,vader").containsEntry("OMPI_MCA_btl_tcp_if_include", "lo");
        assertThat(error("--mca", "plm_rsh_agent", "ssh", "true")).isEqualTo("--mca plm_rsh_agent configures Open MPI's "
                + "mpirun and its daemons (plm), which banyan replaces; see banyan run --help (--launch-agent, --map-by, "
                + "--bind-to, --routing)");
        assertThat(error("--mca", "btl=self", "true"))
                .isEqualTo("--mca 'btl=self': not an Open MPI parameter name (--mca NAME VALUE, as --mca btl self,vader)");
        assertThat(error("--mca", "btl")).isEqualTo("option --mca needs two values: --mca NAME VALUE");
    }

    @Test
    void hardwareThreadsCountOnlyForThisMachinesOwnSlots() throws Exception {
        assertThat(parse("--use-hwthread-cpus", "true").job().nodes().getFirst().slots())
                .isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(error("--use-hwthread-cpus", "--host", "localhost:3", "true"))
                .isEqualTo("--use-hwthread-cpus counts this machine's slots; -H and --hostfile give them (NAME:SLOTS)");
        assertThat(error("--dvm", "dvm.uri", "--use-hwthread-cpus", "true"))
                .isEqualTo("--dvm runs on daemons already started: drop --use-hwthread-cpus (give them to banyan dvm start)");
    }

    @Test
    void bindingOptionsGoIntoThePlacement() throws Exception {
        RankPlacement p = parse("-n", "2", "--map-by", "socket", "--bind-to", "core", "--cpus-per-rank", "2",
                "--report-bindings", "true").job().placement();
        assertThat(p.bindTo()).isEqualTo(CpuBinding.Target.CORE);
        assertThat(p.bySocket()).isTrue();
        assertThat(p.cpusPerRank()).isEqualTo(2);
        assertThat(p.report()).isTrue();
        assertThat(p.nodeOf()).isNull();
        assertThat(parse("-n", "2", "true").job().placement()).isEqualTo(RankPlacement.NONE);
        assertThat(parse("--map-by", "ppr:3:node", "--oversubscribe", "true").job().size()).as("3 per host, one host").isEqualTo(3);
        assertThat(error("--bind-to", "cache", "true")).isEqualTo("--bind-to 'cache' is not a binding (valid: none, core, socket, numa, hwthread)");
        assertThat(error("--cpus-per-rank", "2", "true")).isEqualTo("--cpus-per-rank gives each rank cores to be bound to: add --bind-to core");
        assertThat(error("--map-by", "ppr:2:rack", "true")).isEqualTo("--map-by 'ppr:2:rack': ppr is ppr:N:node, ppr:N:socket or ppr:N:core");
        // Outside an allocation it was dropped without a word when the job stayed on this machine.
        String outside = "--static-ports starts the daemons of a Slurm allocation's own nodes: run it inside salloc or sbatch, "
                + "without --host, --hostfile or another --launcher";
        assertThat(error("--static-ports", "true")).isEqualTo(outside);
        assertThat(error("--static-ports", "-H", "localhost:2", "true")).isEqualTo(outside);
        assertThat(error("--launch", "star", "--spawn-degree", "4", "true"))
                .isEqualTo("--launch star and --spawn-degree both shape the launch tree: give one");
    }

    /**
     * Open MPI's mapping modifiers and binding qualifiers, common in hybrid MPI+OpenMP scripts
     * ({@code --map-by ppr:1:socket:PE=4}): they were refused as policies banyan does not know.
     */
    @Test
    void openMpisMappingModifiersAndBindingQualifiers() throws Exception {
        RankPlacement pe = parse("-n", "1", "--map-by", "slot:PE=2", "true").job().placement();
        assertThat(pe.cpusPerRank()).isEqualTo(2);
        assertThat(pe.bindTo()).as("PE binds to cores unless told otherwise").isEqualTo(CpuBinding.Target.CORE);
        RankPlacement ppr = parse("--map-by", "ppr:1:node:pe=2,NOOVERSUBSCRIBE", "--bind-to", "socket", "true").job().placement();
        assertThat(ppr.cpusPerRank()).isEqualTo(2);
        assertThat(ppr.bindTo()).isEqualTo(CpuBinding.Target.SOCKET);
        assertThat(parse("--map-by", "socket:PE=1", "true").job().placement().bySocket()).isTrue();
        RunRequest over = parse("-H", "localhost:1", "-n", "3", "--map-by", ":OVERSUBSCRIBE", "true");
        assertThat(over.job().oversubscribe()).isTrue();
        assertThat(over.job().mapping()).isEqualTo(org.banyan.core.job.MappingPolicy.SLOT);
        assertThat(parse("-N", "1", "--map-by", ":OVERSUBSCRIBE", "true").job().oversubscribe()).as("modifiers alone place nothing").isTrue();
        assertThat(parse("-H", "localhost:1", "-n", "2", "--map-by", "node:OVERSUBSCRIBE", "true").job().mapping())
                .isEqualTo(org.banyan.core.job.MappingPolicy.NODE);
        assertThat(error("-H", "localhost:1", "-n", "2", "--map-by", "slot:NOOVERSUBSCRIBE", "true"))
                .startsWith("2 ranks requested but only 1 slot available on localhost");
        assertThat(error("--map-by", "slot:NOOVERSUBSCRIBE", "--oversubscribe", "true"))
                .isEqualTo("--oversubscribe and --map-by ...:NOOVERSUBSCRIBE say opposite things: give one");
        assertThat(error("--map-by", "core:SPAN", "true"))
                .isEqualTo("--map-by 'core:SPAN': 'SPAN' is not a modifier banyan knows (PE=N, OVERSUBSCRIBE, NOOVERSUBSCRIBE)");
        assertThat(error("--map-by", "slot:PE=2", "--bind-to", "none", "true"))
                .isEqualTo("--map-by ...:PE=2 gives each rank cores to be bound to: drop --bind-to none");
        assertThat(error("--map-by", "slot:PE=2", "--cpus-per-rank", "3", "--bind-to", "core", "true"))
                .isEqualTo("--cpus-per-rank 3: the cores per rank were already given as 2");

        assertThat(parse("--bind-to", "core:overload-allowed", "--oversubscribe", "-n", "3", "true").job().placement().bindTo())
                .isEqualTo(CpuBinding.Target.CORE);
        assertThat(parse("--bind-to", "socket:if-supported,overload-allowed", "true").job().placement().bindTo())
                .isEqualTo(CpuBinding.Target.SOCKET);
        RankPlacement hydra = parse("-bind-to", "core:2", "-n", "1", "true").job().placement();
        assertThat(hydra.cpusPerRank()).as("mpiexec.hydra's core:N").isEqualTo(2);
        assertThat(error("--bind-to", "core:tight", "true")).isEqualTo("--bind-to 'core:tight': 'tight' is not a qualifier banyan "
                + "knows (overload-allowed, if-supported, or core:N cores per rank)");
    }

    /** mpirun's --rank-by: it was refused as unknown. */
    @Test
    void rankByNumbersRanksTheOtherWay() throws Exception {
        RunRequest r = parse("--launcher", "local", "-H", "a:2,b:2", "-n", "3", "--rank-by", "node", "true");
        assertThat(r.job().mapping()).isEqualTo(org.banyan.core.job.MappingPolicy.SLOT_RANKED_BY_NODE);
        assertThat(org.banyan.core.job.RankMap.of(r.job()).ranksOf(0)).containsExactly(0, 2);
        assertThat(parse("--map-by", "node", "-rank-by", "core", "true").job().mapping())
                .isEqualTo(org.banyan.core.job.MappingPolicy.NODE_RANKED_BY_SLOT);
        assertThat(parse("--map-by", "socket", "--rank-by", "core", "--bind-to", "core", "true").job().placement().reranked()).isTrue();
        assertThat(parse("--map-by", "socket", "--rank-by", "socket", "--bind-to", "core", "true").job().placement().reranked()).isFalse();
        assertThat(parse("--rank-by", "package", "--bind-to", "core", "true").job().placement().reranked()).isTrue();
        assertThat(parse("--rank-by", "slot", "true").job().placement()).isEqualTo(RankPlacement.NONE);
        assertThat(error("--rank-by", "core:span", "true"))
                .isEqualTo("--rank-by 'core:span' is not a ranking banyan knows (node, slot, core, hwthread, socket, package, numa)");
        Path rf = dir.resolve("rf");
        Files.writeString(rf, "rank 0=localhost slot=0\n");
        assertThat(error("--rankfile", rf.toString(), "--rank-by", "node", "true")).isEqualTo("--rank-by: a rankfile numbers every rank itself");
    }

    /** Open MPI's --app FILE and mpiexec.hydra's -configfile FILE: they were refused as unknown. */
    @Test
    void anAppFileGivesTheContexts() throws Exception {
        Path app = dir.resolve("app");
        Files.writeString(app, """
                # two programs
                -n 1 echo 'a b' -x

                -np 2 -env K v printf "%s\\n" \\
                   c\\ d : -n 1 true
                """);
        RunRequest r = parse("-x", "G=1", "--oversubscribe", "--app", app.toString());
        List<org.banyan.core.job.AppContext> apps = r.job().apps();
        assertThat(apps).hasSize(3);
        assertThat(apps.get(0).args()).containsExactly("a b", "-x");
        assertThat(apps.get(1).executable()).isEqualTo("printf");
        assertThat(apps.get(1).args()).containsExactly("%s\\n", "c d");
        assertThat(apps.get(1).count()).isEqualTo(2);
        assertThat(apps.get(1).env()).containsEntry("K", "v").containsEntry("G", "1");
        assertThat(apps.get(0).env()).doesNotContainKey("K");
        assertThat(apps.get(2).executable()).isEqualTo("true");
        assertThat(parse("-configfile", app.toString(), "--oversubscribe").job().size()).isEqualTo(4);
        assertThat(error("--app", app.toString(), "true")).isEqualTo("--app (-configfile) gives the job's programs: drop true from "
                + "the command line, or put it in the file");
        assertThat(error("-n", "2", "--app", app.toString()))
                .isEqualTo("-n belongs to a program: give it on the lines of --app's file (-n 2 ./a)");
        assertThat(error("--app", dir.resolve("none").toString())).isEqualTo("--app '" + dir.resolve("none") + "': no such file");
        Files.writeString(app, "# nothing\n\n");
        assertThat(error("--app", app.toString())).isEqualTo("--app '" + app + "' names no program");
        Files.writeString(app, "-n 1 true\n-n 1 echo 'x\n");
        assertThat(error("--app", app.toString())).isEqualTo("--app '" + app + "' line 2: a ' is not closed");
        Files.writeString(app, "-n 1 true\n-n 1\n");
        assertThat(error("--app", app.toString())).isEqualTo("no program after ':' (MPMD syntax: -n 1 ./a : -n 3 ./b)");
    }

    /** mpiexec.hydra's -hosts is -H: it was refused as unknown. */
    @Test
    void hydrasHostsOptionNamesTheHosts() throws Exception {
        assertThat(parse("-hosts", "localhost:3", "true").job().size()).isEqualTo(3);
    }

    /**
     * mpiexec.hydra goes round its hosts again when the ranks outnumber their slots; under its
     * own spellings banyan did not ({@code -hosts a,b -n 4}: "4 ranks requested but only 2 slots").
     */
    @Test
    void hydrasSpellingsOfTheHostsWrapAsHydraDoes() throws Exception {
        RunRequest r = parse("--launcher", "local", "-hosts", "a,b", "-n", "4", "true");
        assertThat(org.banyan.core.job.RankMap.of(r.job()).ranksOf(0)).as("as mpiexec.hydra -launcher fork places them")
                .containsExactly(0, 2);
        assertThat(parse("-ppn", "1", "-n", "3", "true").job().size()).isEqualTo(3);
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "localhost:1\n");
        assertThat(parse("-f", hosts.toString(), "-n", "3", "true").job().size()).isEqualTo(3);
        assertThat(error("--hostfile", hosts.toString(), "-n", "3", "true")).as("Open MPI's spelling keeps Open MPI's rule")
                .startsWith("3 ranks requested but only 1 slot available");
        assertThat(error("-H", "localhost:1", "-n", "3", "true")).startsWith("3 ranks requested but only 1 slot available");
        assertThat(error("-hosts", "localhost:1", "--map-by", ":NOOVERSUBSCRIBE", "-n", "3", "true"))
                .startsWith("3 ranks requested but only 1 slot available");
    }

    /** mpirun's --pernode, --nolocal and --display-allocation, Hydra's -genvnone: they were refused as unknown. */
    @Test
    void moreOfMpirunsAndHydrasOptions() throws Exception {
        RunRequest per = parse("--launcher", "local", "-H", "a:4,b:4", "--pernode", "true");
        assertThat(per.job().size()).isEqualTo(2);
        assertThat(error("--pernode", "--map-by", "node", "true")).isEqualTo("--npernode and --map-by both say how ranks are placed: give one");

        RunRequest remote = parse("--nolocal", "-H", "localhost:2,192.0.2.1:2", "true");
        assertThat(remote.job().nodes()).extracting(org.banyan.core.job.Node::name).containsExactly("192.0.2.1");
        assertThat(remote.agent()).isInstanceOf(LaunchAgent.RemoteShell.class);
        assertThat(error("--nolocal", "true")).isEqualTo("--nolocal leaves no host: give the others with --host or --hostfile");
        assertThat(error("--nolocal", "-H", "localhost,127.0.0.1", "true")).startsWith("--nolocal leaves no host: every host given is this machine");

        RunRequest shown = parse("--display-allocation", "-H", "localhost:2", "true");
        assertThat(shown.displayAllocation()).isTrue();
        assertThat(shown.allocation()).isEqualTo("""
                ======================   ALLOCATED NODES   ======================
                \tlocalhost: slots=2 state=UP
                =================================================================
                """);
        assertThat(parse("true").displayAllocation()).isFalse();
        assertThat(error("--display-allocation", "--dvm", "dvm.uri", "true"))
                .isEqualTo("--display-allocation: a DVM's hosts and slots are in banyan dvm status");

        assertThat(parse("-genvnone", "-genv", "A", "1", "true").job().apps().getFirst().env()).containsExactly(Map.entry("A", "1"));
        assertThat(error("-genvall", "-genvnone", "true")).isEqualTo("-genvall and -genvnone say opposite things: give one");
    }

    /** mpirun's --path: where programs are looked for. It was refused as unknown. */
    @Test
    void pathSaysWhereProgramsAreLookedFor() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path tool = bin.resolve("mytool");
        Files.writeString(tool, "#!/bin/sh\necho ok\n");
        assertThat(tool.toFile().setExecutable(true)).isTrue();
        assertThat(error("mytool")).isEqualTo("program 'mytool' not found in PATH or in " + dir);
        RunRequest r = parse("--path", "/nowhere:" + bin, "-n", "1", "mytool");
        assertThat(r.job().apps().getFirst().executable()).isEqualTo(tool.toString());
        assertThat(parse("--path", bin.toString(), "-n", "1", "/bin/true").job().apps().getFirst().executable())
                .as("a path is taken as given").isEqualTo("/bin/true");
        assertThat(error("--path", "/nowhere", "true")).isEqualTo("program 'true' not found in --path /nowhere or in " + dir);
    }

    /**
     * mpirun -n 2 a.out: a name not found along PATH is the ranks' working directory's file, as
     * mpirun finds it (--wdir's, else this one); it was "not found in PATH", as mpiexec.hydra says.
     */
    @Test
    void aProgramNotAlongThePathIsLookedForInTheRanksDirectory() throws Exception {
        Path here = dir.resolve("a.out");
        Files.writeString(here, "#!/bin/sh\n");
        assertThat(here.toFile().setExecutable(true)).isTrue();
        assertThat(parse("-n", "1", "a.out").job().apps().getFirst().executable()).isEqualTo(here.toString());
        Path sub = Files.createDirectories(dir.resolve("sub"));
        assertThat(error("--wdir", sub.toString(), "a.out")).as("the ranks' directory, not this one")
                .isEqualTo("program 'a.out' not found in PATH or in " + sub);
        Files.copy(here, sub.resolve("a.out"));
        assertThat(parse("--wdir", "sub", "-n", "1", "a.out").job().apps().getFirst().executable())
                .isEqualTo(sub.resolve("a.out").toString());
        assertThat(parse("-n", "1", "true").job().apps().getFirst().executable()).as("PATH first, the name kept").isEqualTo("true");
        Files.writeString(dir.resolve("data"), "x");
        assertThat(error("data")).isEqualTo("program 'data' not found in PATH or in " + dir);
    }

    /**
     * What mpirun and mpiexec.hydra scripts carry that was refused or dropped: MPIEXEC_TIMEOUT
     * (both honour it; banyan ran on without a limit), Open MPI's -wd and --nooversubscribe.
     */
    @Test
    void mpiexecTimeoutWdAndNooversubscribe() throws Exception {
        assertThat(withTimeout("30", "true").settings().timeoutMillis()).isEqualTo(30_000);
        assertThat(withTimeout("30", "--timeout", "5", "true").settings().timeoutMillis()).as("--timeout first").isEqualTo(5_000);
        assertThat(withTimeout("0", "true").settings().timeoutMillis()).as("0: none, as under Hydra").isZero();
        assertThat(withTimeout("", "true").settings().timeoutMillis()).isZero();
        assertThatThrownBy(() -> withTimeout("soon", "true")).hasMessage("MPIEXEC_TIMEOUT must be a number of seconds, got 'soon'");
        Path sub = Files.createDirectories(dir.resolve("w"));
        assertThat(parse("-wd", sub.toString(), "true").job().apps().getFirst().workdir()).isEqualTo(sub.toString());
        assertThat(error("-H", "localhost:1", "-n", "2", "--nooversubscribe", "true"))
                .startsWith("2 ranks requested but only 1 slot available on localhost");
        assertThat(error("-hosts", "localhost:1", "-n", "2", "-nooversubscribe", "true")).as("Hydra's spellings wrap otherwise")
                .startsWith("2 ranks requested but only 1 slot available on localhost");
        assertThat(error("--nooversubscribe", "--oversubscribe", "true"))
                .isEqualTo("--oversubscribe and --nooversubscribe say opposite things: give one");
        assertThat(parse("--timeout", "5", "--report-state-on-timeout", "true").settings().stateOnTimeout()).isTrue();
        assertThat(error("--dvm", dir.resolve("d.uri").toString(), "--report-state-on-timeout", "true"))
                .isEqualTo("--report-state-on-timeout: a DVM tells its client the job's status only; run without --dvm");
        assertThat(error("-q", "--report-state-on-timeout", "true"))
                .isEqualTo("-q hides the ranks --report-state-on-timeout asks for: give one");
    }

    /**
     * rmaps_base_oversubscribe, the mpirun parameter CI scripts set (often as OMPI_MCA_... in the
     * environment) to run more ranks than a runner has cores: refused as an mpirun framework's on
     * the command line, and not read from the environment, so -n 4 on two cores was refused.
     */
    @Test
    void openMpisOversubscribeParameterIsOversubscribe() throws Exception {
        RunRequest r = parse("--mca", "rmaps_base_oversubscribe", "1", "-H", "localhost:1", "-n", "2", "true");
        assertThat(r.job().oversubscribe()).isTrue();
        assertThat(r.job().apps().getFirst().env()).doesNotContainKey("OMPI_MCA_rmaps_base_oversubscribe");
        RunRequest fromEnv = new RunArguments(Map.of("PATH", "/usr/bin:/bin", "OMPI_MCA_rmaps_base_oversubscribe", "true"), dir)
                .parse(List.of("-H", "localhost:1", "-n", "2", "true"));
        assertThat(fromEnv.job().oversubscribe()).isTrue();
        assertThatThrownBy(() -> new RunArguments(Map.of("PATH", "/usr/bin:/bin", "OMPI_MCA_rmaps_base_oversubscribe", "true"), dir)
                .parse(List.of("-H", "localhost:1", "-n", "2", "--nooversubscribe", "true")))
                .as("the command line wins").hasMessageStartingWith("2 ranks requested but only 1 slot available on localhost");
        assertThat(error("-mca", "rmaps_base_oversubscribe", "0", "--oversubscribe", "true"))
                .isEqualTo("--oversubscribe and --mca rmaps_base_oversubscribe say opposite things: give one");
        assertThat(error("--mca", "rmaps_base_oversubscribe", "maybe", "true"))
                .isEqualTo("--mca rmaps_base_oversubscribe 'maybe': not a boolean (1, true, yes; 0, false, no)");
        assertThat(error("--mca", "rmaps_base_mapping_policy", "node", "true")).as("the framework's others still refused")
                .startsWith("--mca rmaps_base_mapping_policy configures Open MPI's mpirun");
    }

    private RunRequest withTimeout(String seconds, String... args) throws Exception {
        return new RunArguments(Map.of("PATH", "/usr/bin:/bin", "HOME", "/root", "MPIEXEC_TIMEOUT", seconds), dir).parse(List.of(args));
    }

    /** mpiexec.hydra's -bootstrap and its fork and rsh launchers: they were refused. */
    @Test
    void hydrasLaunchers() throws Exception {
        assertThat(parse("-bootstrap", "fork", "-hosts", "a,b", "true").agent()).isEqualTo(new LaunchAgent.Local());
        assertThat(parse("-launcher", "rsh", "-hosts", "localhost", "true").agent()).as("this machine alone, as ssh")
                .isEqualTo(new LaunchAgent.InProcess());
        assertThat(parse("-launcher", "rsh", "-hosts", "192.0.2.1,192.0.2.2", "true").agent()).isEqualTo(new LaunchAgent.RemoteShell(List.of("rsh")));
        assertThat(parse("-launcher", "rsh", "-bootstrap-exec", "/usr/bin/rsh -l u", "-hosts", "localhost", "true").agent())
                .isEqualTo(new LaunchAgent.RemoteShell(List.of("/usr/bin/rsh", "-l", "u")));
        assertThat(error("-launcher", "lsf", "true"))
                .isEqualTo("--launcher 'lsf' is not available (valid: inproc, local, ssh, slurm; Hydra's fork and rsh)");
    }

    /** Copied from an Open MPI command line (containers, CI): it was refused as unknown; as root it changes nothing. */
    @Test
    void allowRunAsRootIsAccepted() throws Exception {
        assertThat(parse("--allow-run-as-root", "-n", "2", "true").job().size()).isEqualTo(2);
        assertThat(parse("-allow-run-as-root", "-n", "1", "true").job().size()).isEqualTo(1);
    }

    /** mpirun's -npernode and -N, Hydra's -ppn and -perhost: N ranks per host. They were refused as unknown. */
    @Test
    void npernodeIsPprPerNodeUnderEachPeersName() throws Exception {
        for (String name : List.of("--npernode", "-npernode", "-N", "-ppn", "--ppn", "-perhost")) {
            RunRequest r = parse("--launcher", "local", "--host", "a:4,b:4", name, "3", "true");
            assertThat(org.banyan.core.job.RankMap.of(r.job()).ranksOn(0)).as(name).isEqualTo(3);
            assertThat(r.job().size()).as(name).isEqualTo(6);
        }
        assertThat(error("--npernode", "2", "--map-by", "node", "true"))
                .isEqualTo("--npernode and --map-by both say how ranks are placed: give one");
        assertThat(error("--map-by", "node", "-N", "1", "true")).isEqualTo("--npernode and --map-by both say how ranks are placed: give one");
        assertThat(error("-ppn", "0", "true")).startsWith("--npernode");
    }

    /** Open MPI 1.x's -bynode/-byslot/-bysocket, -npersocket and Hydra's -rr, still in scripts: the policies they name. */
    @Test
    void olderMappingSpellings() throws Exception {
        assertThat(parse("-bynode", "-H", "localhost:2,127.0.0.2:2", "--launcher", "local", "-n", "3", "true").job().mapping())
                .isEqualTo(org.banyan.core.job.MappingPolicy.NODE);
        assertThat(parse("-rr", "true").job().mapping()).isEqualTo(org.banyan.core.job.MappingPolicy.NODE);
        assertThat(parse("-byslot", "true").job().mapping()).isEqualTo(org.banyan.core.job.MappingPolicy.SLOT);
        assertThat(parse("-bysocket", "--bind-to", "core", "true").job().placement().bySocket()).isTrue();
        assertThat(error("-npersocket", "1", "-N", "1", "true")).isEqualTo("--npernode and --map-by both say how ranks are placed: give one");
    }

    @Test
    void aRankfilePlacesEveryRankAndNamesTheHosts() throws Exception {
        Path rf = dir.resolve("rf");
        Files.writeString(rf, "rank 0=localhost slot=1\nrank 1=localhost slot=0\n");
        RunRequest r = parse("--rankfile", rf.toString(), "true");
        assertThat(r.job().size()).as("-n defaults to the rankfile's ranks").isEqualTo(2);
        assertThat(r.job().nodes()).hasSize(1);
        assertThat(r.job().placement().slots()).containsExactly("1", "0");
        assertThat(r.job().placement().nodeOf()).containsExactly(0, 0);
        assertThat(error("-n", "3", "--rankfile", rf.toString(), "true")).isEqualTo("the rankfile places 2 ranks; the job has 3");
        Files.writeString(rf, "rank 0=localhost slot=64\n");
        assertThat(error("--rankfile", rf.toString(), "true")).startsWith("rank 0 on localhost: slot 64: this host has ");
        Files.writeString(rf, "rank 0=localhost slot=0\n");
        assertThat(error("--rankfile", rf.toString(), "--bind-to", "socket", "true"))
                .isEqualTo("--bind-to socket: a rankfile or TreeMatch binds each rank to its slot's cores");
        assertThat(error("--rankfile", dir.resolve("none").toString(), "true")).isEqualTo("--rankfile '" + dir.resolve("none")
                + "': no such file");
        Files.writeString(rf, "rank 0=elsewhere.invalid slot=0\n");
        assertThat(error("-H", "localhost", "--rankfile", rf.toString(), "true"))
                .isEqualTo("the rankfile names host 'elsewhere.invalid', which is not among the job's hosts");
    }

    @Test
    void treematchMapsOnAMatrix() throws Exception {
        Path m = dir.resolve("m.mat");
        Files.writeString(m, "0 9\n9 0\n");
        RunRequest r = parse("--map-by", "treematch:" + m, "true");
        assertThat(r.job().size()).isEqualTo(2);
        assertThat(r.job().placement().slots()).hasSize(2).doesNotHaveDuplicates();
        assertThat(error("--map-by", "treematch:" + dir.resolve("x.mat"), "true")).isEqualTo("--map-by treematch '"
                + dir.resolve("x.mat") + "' does not exist");
    }

    @Test
    void monitorOptionsReachEveryRanksEnvironment() throws Exception {
        assertThat(parse("-n", "2", "--monitor", "true").job().apps().getFirst().env())
                .containsEntry("BANYAN_MONITOR", "all").containsEntry("BANYAN_MONITOR_OUT", dir.resolve("banyan-monitor").toString());
        assertThat(parse("-n", "2", "--monitor=external", "--monitor-out", "m", "true").job().apps().getFirst().env())
                .containsEntry("BANYAN_MONITOR", "external").containsEntry("BANYAN_MONITOR_OUT", dir.resolve("m").toString());
        assertThat(parse("-n", "2", "--monitor-out", "m", "true").job().apps().getFirst().env())
                .containsEntry("BANYAN_MONITOR", "all");
        assertThat(parse("-n", "2", "true").job().apps().getFirst().env()).doesNotContainKey("BANYAN_MONITOR");
        assertThat(error("--monitor=some", "true")).isEqualTo("--monitor=some: the scope is all or external");
        assertThat(error("--monitor", "all", "true")).as("a value only after =").isEqualTo("program 'all' not found in PATH or in " + dir);
    }

    @Test
    void longOptionsTakeInlineValues() throws Exception {
        RunRequest r = parse("--np=2", "--host=localhost:2", "--stdin=none", "true");
        assertThat(r.job().size()).isEqualTo(2);
        assertThat(r.job().stdinRank()).isEqualTo(-1);
    }

    @Test
    void mpmdContexts() throws Exception {
        RunRequest r = parse("--host", "localhost:4", "-n", "1", "echo", "a", ":", "-n", "3", "true");
        assertThat(r.job().apps()).hasSize(2);
        assertThat(r.job().apps().get(0).executable()).isEqualTo("echo");
        assertThat(r.job().apps().get(0).args()).containsExactly("a");
        assertThat(r.job().apps().get(1).count()).isEqualTo(3);
        assertThat(r.job().size()).isEqualTo(4);
    }

    /** '--' ends the options, as mpirun 4.1.4 takes it ('mpirun -n 1 -- echo hi'); it was an unknown option. */
    @Test
    void doubleDashEndsTheOptions() throws Exception {
        RunRequest r = parse("--host", "localhost:2", "-n", "1", "--", "echo", "--tag-output", ":", "-n", "1", "--", "true");
        assertThat(r.job().apps().get(0).executable()).isEqualTo("echo");
        assertThat(r.job().apps().get(0).args()).as("the program's own").containsExactly("--tag-output");
        assertThat(r.job().apps().get(1).executable()).isEqualTo("true");
        assertThat(error("-n", "1", "--")).isEqualTo("no program after '--' (usage: banyan run [options] -- PROGRAM [ARGS...])");
    }

    @Test
    void withoutCountOneRankPerSlot() throws Exception {
        assertThat(parse("--host", "localhost:3", "true").job().size()).isEqualTo(3);
    }

    @Test
    void localNamesFoldIntoOneNodeWithTheirSlotsAdded() throws Exception {
        RunRequest r = parse("--host", "localhost:2,127.0.0.1:3", "-n", "5", "true");
        assertThat(r.job().nodes()).hasSize(1);
        assertThat(r.job().totalSlots()).isEqualTo(5);
    }

    @Test
    void hostfileSlotsBoundTheRanks() throws Exception {
        Files.writeString(dir.resolve("hosts"), "localhost slots=2\n");
        assertThat(parse("--hostfile", "hosts", "-n", "2", "true").job().size()).isEqualTo(2);
        assertThat(error("--hostfile", "hosts", "-n", "3", "true")).isEqualTo(
                "3 ranks requested but only 2 slots available on localhost; add --oversubscribe or give more slots"
                        + " (--host NAME:SLOTS or a hostfile)");
        assertThat(parse("--hostfile", "hosts", "-n", "3", "--oversubscribe", "true").job().size()).isEqualTo(3);
        // both: their slots were added up (4 here) without a word
        assertThat(error("--hostfile", "hosts", "--host", "localhost:2", "true")).isEqualTo("--host and --hostfile both list the hosts: give one");
    }

    @Test
    void otherHostsMakeOneNodeEachOverSshByDefault() throws Exception {
        RunRequest r = parse("--host", "localhost:2,127.0.0.2", "-n", "3", "true");
        assertThat(r.job().nodes()).hasSize(1); // both are this machine: folded, in-process daemon
        r = parse("--launcher", "local", "--host", "a:2,b,a", "-n", "4", "true");
        assertThat(r.job().nodes()).extracting(n -> n.name() + ":" + n.slots()).containsExactly("a:3", "b:1");
        assertThat(r.agent()).isEqualTo(new LaunchAgent.Local());
        r = parse("--launch-agent", "ssh -p 2222", "--host", "localhost", "true");
        assertThat(r.agent()).isEqualTo(new LaunchAgent.RemoteShell(List.of("ssh", "-p", "2222")));
        // ssh is for other hosts, as under mpiexec -launcher ssh: this machine alone needs no sshd
        assertThat(parse("-launcher", "ssh", "true").agent()).isInstanceOf(LaunchAgent.InProcess.class);
        assertThat(parse("--launcher", "ssh", "--host", "localhost:2", "true").agent()).isInstanceOf(LaunchAgent.InProcess.class);
    }

    /** Inside an allocation --launcher ssh takes its hosts, as Hydra's -launcher ssh does, and sshes to them. */
    @Test
    void insideAnAllocationLauncherSshTakesItsNodes() throws Exception {
        // names that do not resolve here: ssh would be asked to reach them (they were not looked at)
        assertThatThrownBy(() -> new RunArguments(Map.of("PATH", "/usr/bin:/bin", "SLURM_JOB_NODELIST", "nowhere[1-2]",
                "SLURM_JOB_CPUS_PER_NODE", "2(x2)"), dir).parse(List.of("--launcher", "ssh", "true")))
                .hasMessageContaining("unknown host 'nowhere1'");
        RunRequest r = new RunArguments(Map.of("PATH", "/usr/bin:/bin", "SLURM_JOB_NODELIST", "localhost",
                "SLURM_JOB_CPUS_PER_NODE", "3"), dir).parse(List.of("--launcher", "ssh", "true"));
        assertThat(r.job().nodes()).extracting(n -> n.name() + ":" + n.slots()).as("the allocation's slots").containsExactly("localhost:3");
    }

    @Test
    void insideASlurmAllocationItsNodesAreTheHostsAndSrunStartsTheDaemons() throws Exception {
        RunRequest r = new RunArguments(Map.of("PATH", "/usr/bin:/bin", "SLURM_JOB_NODELIST", "localhost,127.0.0.[2-3]",
                "SLURM_JOB_CPUS_PER_NODE", "2(x3)"), dir).parse(List.of("true"));
        assertThat(r.agent()).isEqualTo(new LaunchAgent.Slurm());
        assertThat(r.job().nodes()).extracting(n -> n.name() + ":" + n.slots())
                .containsExactly("localhost:2", "127.0.0.2:2", "127.0.0.3:2");
        assertThat(r.job().size()).isEqualTo(6);
        assertThatThrownBy(() -> new RunArguments(Map.of("PATH", "/usr/bin:/bin", "SLURM_JOB_NODELIST", "localhost,127.0.0.2",
                "SLURM_JOB_CPUS_PER_NODE", "2(x2)", "SLURM_TASKS_PER_NODE", "1(x2)"), dir).parse(List.of("-n", "3", "true")))
                .hasMessage("3 ranks requested but only 2 slots available on 2 hosts; add --oversubscribe or ask Slurm for more "
                        + "tasks (salloc/sbatch -n, --ntasks-per-node)");
    }

    @Test
    void treeShapeOptions() throws Exception {
        assertThat(parse("--spawn-degree", "4", "true").topology()).hasToString("radix:4");
        assertThat(parse("--spawn-degree", "0", "--routing", "binomial", "true").topology()).hasToString("binomial");
        assertThat(parse("--launch", "star", "true").topology()).hasToString("direct");
        assertThat(parse("--launch", "star", "true").routing()).as("a pure star").hasToString("direct");
        assertThat(parse("true").routing()).hasToString("radix:32");
        assertThat(parse("--spawn-degree", "2", "--routing", "binomial", "true").routing()).hasToString("binomial");
        assertThat(parse("true").job().modex()).isEqualTo(org.banyan.core.job.Modex.LAZY);
        assertThat(parse("--modex", "full", "true").job().modex()).isEqualTo(org.banyan.core.job.Modex.FULL);
    }

    @Test
    void badInputIsOneClearLine() throws Exception {
        assertThat(error("-n", "0", "true")).isEqualTo("-n must be a positive integer, got '0'");
        assertThat(error("-n", "two", "true")).isEqualTo("-n must be a positive integer, got 'two'");
        assertThat(error("-n")).isEqualTo("option -n needs a value");
        assertThat(error("--wdir", "", "true")).isEqualTo("option --wdir needs a value, not an empty one");
        assertThat(error("--output-filename=", "true")).isEqualTo("option --output-filename needs a value, not an empty one");
        assertThat(error("--bogus", "true")).isEqualTo("unknown option '--bogus' (see banyan run --help)");
        assertThat(error()).isEqualTo("no program given (usage: banyan run [options] PROGRAM [ARGS...])");
        assertThat(error("-n", "1", "true", ":")).isEqualTo("no program after ':' (MPMD syntax: -n 1 ./a : -n 3 ./b)");
        assertThat(error("./missing")).isEqualTo("program './missing' does not exist");
        assertThat(error("no-such-program-anywhere")).isEqualTo("program 'no-such-program-anywhere' not found in PATH or in " + dir);
        Files.writeString(dir.resolve("plain"), "not executable");
        assertThat(error("./plain")).isEqualTo("program './plain' is not executable");
        assertThat(error("--map-by", "sockets", "true"))
                .isEqualTo("--map-by 'sockets' is not a mapping policy (valid: slot, node, socket, core, ppr:N:OBJ, treematch:MATRIX)");
        assertThat(error("--timeout", "-1", "true")).isEqualTo("--timeout must be a positive number of seconds (at least 0.001, e.g. 30 or 2.5), got '-1'");
        assertThat(error("--host", "no-such-host.invalid", "true"))
                .isEqualTo("--host: unknown host 'no-such-host.invalid' (the name does not resolve)");
        assertThat(error("--launcher", "inproc", "--host", "localhost,no-such-host.invalid", "true"))
                .startsWith("--host: host 'no-such-host.invalid' is not this machine (");
        assertThat(error("--spawn-degree", "-2", "true"))
                .isEqualTo("--spawn-degree must be 0 (follow --routing) or a positive integer, got '-2'");
        assertThat(error("--routing", "ring", "true"))
                .isEqualTo("--routing 'ring': unknown topology 'ring' (valid: radix:K, binomial, direct)");
        assertThat(error("--launch", "mesh", "true")).isEqualTo("--launch 'mesh' is not a launch shape (valid: tree, star)");
        assertThat(error("--modex", "eager", "true")).isEqualTo("--modex: unknown modex 'eager' (valid: full, lazy)");
        assertThat(error("--launcher", "local", "--launch-agent", "ssh -p 2", "true"))
                .isEqualTo("--launch-agent is the remote shell of --launcher ssh, not of --launcher local");
        assertThat(error("-x", "NOPE_NOT_SET", "true"))
                .isEqualTo("-x NOPE_NOT_SET: NOPE_NOT_SET is not set in the environment (use -x NOPE_NOT_SET=VALUE)");
        assertThat(error("-x", "1BAD=2", "true")).isEqualTo("-x '1BAD=2': '1BAD' is not a valid environment variable name");
        assertThat(error("--wdir", "nowhere", "true")).isEqualTo("--wdir 'nowhere' is not a directory");
        assertThat(error("--stdin", "5", "-n", "2", "--oversubscribe", "true")).isEqualTo("--stdin 5: the job has only 2 ranks");
        assertThat(error("--launcher", "mpd", "true"))
                .isEqualTo("--launcher 'mpd' is not available (valid: inproc, local, ssh, slurm; Hydra's fork and rsh)");
        assertThat(error("--launcher", "slurm", "true"))
                .isEqualTo("--launcher slurm needs a Slurm allocation (SLURM_JOB_NODELIST is not set)");
    }

    @Test
    void specialAndBinaryFilesAsInputsAreOneLine() throws Exception {
        assertThat(error("--hostfile", "/dev/zero", "true")).isEqualTo("hostfile '/dev/zero' is not text: line 1 has a NUL byte");
        assertThat(error("--app", "/dev/zero")).isEqualTo("--app '/dev/zero' is not text: line 1 has a NUL byte");
        assertThat(error("--rankfile", "/dev/zero", "true")).isEqualTo("--rankfile '/dev/zero' is not text: line 1 has a NUL byte");
        java.nio.file.Path binary = dir.resolve("hosts.bin");
        java.nio.file.Files.write(binary, new byte[] {'a', '\n', 'b', (byte) 0xC3, (byte) 0x28, '\n'});
        assertThat(error("--hostfile", binary.toString(), "true")).isEqualTo("hostfile '" + binary + "' is not text: line 2 is not UTF-8");
        assertThat(error("--hostfile", dir.toString(), "true")).isEqualTo("hostfile '" + dir + "' is a directory");
        java.nio.file.Path fifo = dir.resolve("hosts.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        long start = System.nanoTime();
        assertThat(error("--hostfile", fifo.toString(), "true")).isEqualTo("hostfile '" + fifo + "' gave no end of file within "
                + InputFiles.PIPE_WAIT_SECONDS + " s (a named pipe nobody writes to?)");
        assertThat((System.nanoTime() - start) / 1e9).as("seconds").isLessThan(InputFiles.PIPE_WAIT_SECONDS + 5);
    }

    @Test
    void conflictingCountsTimeoutsAndCoresAreNamed() {
        assertThat(error("-n", "1", "-n", "2", "true"))
                .isEqualTo("-n 2: the number of ranks of this program was already given as 1 (for programs of their own, separate them with ':')");
        assertThat(error("--timeout", "1e-9", "true"))
                .isEqualTo("--timeout must be a positive number of seconds (at least 0.001, e.g. 30 or 2.5), got '1e-9'");
        assertThat(error("--timeout", "0.0001", "true")).startsWith("--timeout must be");
        assertThat(error("--timeout", "NaN", "true")).startsWith("--timeout must be");
        assertThat(error("--timeout", "0x10", "true")).startsWith("--timeout must be");
        assertThat(error("--oversubscribe", "--cpus-per-rank", "999", "--bind-to", "core", "true"))
                .startsWith("999 cores per rank (--cpus-per-rank, PE=, core:N): ").contains(" has ");
    }

    @Test
    void theSameCountTwiceAndCountsOfSeparatePrograms() throws Exception {
        assertThat(parse("-n", "2", "-np", "2", "true").job().apps().getFirst().count()).isEqualTo(2);
        assertThat(parse("--oversubscribe", "-n", "1", "true", ":", "-n", "3", "true").job().apps()).hasSize(2);
        assertThat(parse("--timeout", "0.001", "true").settings().timeoutMillis()).isEqualTo(1);
    }

    /** The user's own OMPI_MCA_mpi_oversubscribe goes to the ranks, over the one daemons give an oversubscribed host's. */
    @Test
    void theUsersOwnOversubscribeFlagWins() throws Exception {
        RunRequest r = new RunArguments(Map.of("PATH", "/usr/bin:/bin", "HOME", "/root", "OMPI_MCA_mpi_oversubscribe", "0"), dir)
                .parse(List.of("-n", "4", "--oversubscribe", "true"));
        assertThat(r.job().apps().getFirst().env()).containsEntry("OMPI_MCA_mpi_oversubscribe", "0");
        assertThat(parse("-n", "4", "--oversubscribe", "true").job().apps().getFirst().env())
                .doesNotContainKey("OMPI_MCA_mpi_oversubscribe");
    }

    /** Every OMPI_MCA_ variable of banyan's environment goes to the ranks, as mpirun forwards them; -x wins over it. */
    @Test
    void theUsersOpenMpiParametersGoToTheRanks() throws Exception {
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "HOME", "/root", "OMPI_MCA_ess", "^pmi",
                "OMPI_MCA_btl", "self,tcp", "NOT_MCA", "x");
        RunRequest r = new RunArguments(env, dir).parse(List.of("-n", "2", "-x", "OMPI_MCA_btl=self,vader", "true"));
        assertThat(r.job().apps().getFirst().env()).containsEntry("OMPI_MCA_ess", "^pmi")
                .containsEntry("OMPI_MCA_btl", "self,vader").doesNotContainKey("NOT_MCA");
    }
}
