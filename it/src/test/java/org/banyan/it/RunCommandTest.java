package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** banyan run with real processes: output, environment, exit codes, I/O options, bad input. */
class RunCommandTest {
    @TempDir
    Path dir;

    static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
    }

    @Test
    void everyRankSeesItsEnvironment() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "4", "--oversubscribe", "sh", "-c",
                "echo $PMI_RANK $PMI_SIZE $MPI_LOCALRANKID $MPI_LOCALNRANKS $OMPI_COMM_WORLD_RANK $BANYAN_RANK"
                        + " $BANYAN_SIZE $BANYAN_LOCAL_RANK $BANYAN_NODE_RANK $BANYAN_JOBID ${PMI_PORT%%:*} $PMI_ID");
        assertThat(r.exit()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder(
                "0 4 0 4 0 0 4 0 0 1 127.0.0.1 0", "1 4 1 4 1 1 4 1 0 1 127.0.0.1 1",
                "2 4 2 4 2 2 4 2 0 1 127.0.0.1 2", "3 4 3 4 3 3 4 3 0 1 127.0.0.1 3");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void aRankDoesNotInheritTheLaunchersOwnVariables() throws Exception {
        launcherVariablesStayOut(java.util.Map.of());
    }

    /**
     * The banyan command gives its JVMs a thread-suspension signal (_JAVA_SR_SIGNUM) and the PMIx
     * server's two C variables (PMIX_MCA_psec, HWLOC_COMPONENTS): a rank does not see them, nor
     * the list naming them, with a PMIx server running or not; a value the user set is theirs and
     * reaches the rank.
     */
    static void launcherVariablesStayOut(java.util.Map<String, String> env) throws Exception {
        String show = "echo \"[${_JAVA_SR_SIGNUM-unset}] [${BANYAN_LAUNCHER_ENV-unset}] [${PMIX_MCA_psec-unset}] [${HWLOC_COMPONENTS-unset}]\"";
        for (String mpi : List.of("pmi", "pmix")) {
            Banyan.Result ours = Banyan.run(env, null, List.of("run", "--mpi", mpi, "-n", "1", "sh", "-c", show));
            assertThat(ours.exit()).as(ours.stderr()).isZero();
            assertThat(ours.stdout()).as(mpi).isEqualTo("[unset] [unset] [unset] [unset]\n");
            java.util.Map<String, String> users = new java.util.HashMap<>(env);
            users.put("_JAVA_SR_SIGNUM", "40");
            users.put("PMIX_MCA_psec", "native");
            users.put("HWLOC_COMPONENTS", "-gl,-opencl");
            Banyan.Result theirs = Banyan.run(users, null, List.of("run", "--mpi", mpi, "-n", "1", "sh", "-c", show));
            assertThat(theirs.exit()).as(theirs.stderr()).isZero();
            assertThat(theirs.stdout()).as(mpi).isEqualTo("[40] [unset] [native] [-gl,-opencl]\n");
        }
    }

    @Test
    void exitStatusIsTheFirstFailingRanksWithOneLineNamingIt() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "-n", "3", "--oversubscribe", "sh", "-c",
                "if [ $PMI_RANK = 1 ]; then exit 3; fi; sleep " + m);
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.stderr()).contains("banyan run: rank 1 on ").contains(" exited with status 3; ending the job");
        assertThat(lines(r.stderr())).filteredOn(l -> l.startsWith("banyan run:")).hasSize(1);
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void deathBySignalIs128PlusTheSignal() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "1", "sh", "-c", "kill -SEGV $$");
        assertThat(r.exit()).isEqualTo(139);
        assertThat(r.stderr()).contains("rank 0 on ").contains("was killed by signal 11 (SIGSEGV)");
    }

    @Test
    void allZeroIsZero() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "true");
        assertThat(r.exit()).isZero();
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void timeoutEndsEverythingWithStatus124() throws Exception {
        String m = Banyan.marker();
        long t0 = System.nanoTime();
        Banyan.Result r = Banyan.run("run", "-n", "2", "--timeout", "1", "sleep", m);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.exit()).isEqualTo(124);
        assertThat(r.stderr()).contains("banyan run: job timed out after 1 s; ending all ranks");
        assertThat(ms).isLessThan(20_000);
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void ranksThatIgnoreSigtermAreKilledAfterTheGrace() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "-n", "2", "--timeout", "1", "sh", "-c", "trap '' TERM; sleep " + m);
        assertThat(r.exit()).isEqualTo(124);
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void tagOutputPrefixesEveryLine() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--tag-output", "sh", "-c",
                "printf 'a\\nb\\n'; echo e >&2; printf tail");
        assertThat(r.exit()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("[1,0]<stdout>:a", "[1,0]<stdout>:b",
                "[1,0]<stdout>:tail", "[1,1]<stdout>:a", "[1,1]<stdout>:b", "[1,1]<stdout>:tail");
        assertThat(lines(r.stderr())).containsExactlyInAnyOrder("[1,0]<stderr>:e", "[1,1]<stderr>:e");
    }

    @Test
    void timestampOutputPrefixesTheArrivalTime() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "1", "--timestamp-output", "echo", "x");
        assertThat(r.stdout()).matches("\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}]x\n");
    }

    /**
     * --output-filename: a file per rank and stream, and the terminal too, as Open MPI 4.1.4's
     * mpirun copies it (banyan wrote the files only, which mpirun does for DIR:nocopy).
     */
    @Test
    void outputFilenameWritesOneFilePerRankAndStream() throws Exception {
        Path out = dir.resolve("out");
        Banyan.Result r = Banyan.run("run", "-n", "2", "--output-filename", out.toString(), "sh", "-c",
                "echo out$PMI_RANK; echo err$PMI_RANK >&2");
        assertThat(r.exit()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("out0", "out1");
        assertThat(lines(r.stderr())).containsExactlyInAnyOrder("err0", "err1");
        assertThat(Files.readString(out.resolve("1/rank.0/stdout"))).isEqualTo("out0\n");
        assertThat(Files.readString(out.resolve("1/rank.1/stdout"))).isEqualTo("out1\n");
        assertThat(Files.readString(out.resolve("1/rank.1/stderr"))).isEqualTo("err1\n");
        Path quiet = dir.resolve("quiet");
        r = Banyan.run("run", "-n", "2", "--output-filename", quiet + ":NOCOPY", "sh", "-c", "echo out$PMI_RANK; echo err$PMI_RANK >&2");
        assertThat(r.exit()).isZero();
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEmpty();
        assertThat(Files.readString(quiet.resolve("1/rank.1/stdout"))).isEqualTo("out1\n");
        Banyan.Result bad = Banyan.run("run", "--output-filename", quiet + ":nojobid", "true");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.stderr()).isEqualTo("banyan run: --output-filename '" + quiet + ":nojobid': 'nojobid' is not a directive banyan "
                + "knows (nocopy)\n");
    }

    /** mpiexec.hydra's -print-all-exitcodes: every rank's status at the end, by host. It was 'unknown option'. */
    @Test
    void everyRanksExitCodeByHostWhenAsked() throws Exception {
        Banyan.Result r = Banyan.run("run", "-print-all-exitcodes", "-n", "2", "sh", "-c", "sleep 0.$PMI_RANK; exit $PMI_RANK");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stderr().lines().toList()).last().asString().matches("banyan run: exit codes: \\[[^]]+\\] 0,1");
        assertThat(Banyan.run("run", "--dvm", "/nonexistent", "-print-all-exitcodes", "true").stderr())
                .contains("--print-all-exitcodes: a DVM tells its client the job's status only; run without --dvm");
    }

    /** --merge-stderr-to-stdout: on banyan's stdout, or in each rank's stdout file with no stderr file, as mpirun writes it. */
    @Test
    void mergedStderrGoesWhereStdoutGoes() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "1", "--merge-stderr-to-stdout", "sh", "-c", "echo out; sleep 0.2; echo err >&2");
        assertThat(r.exit()).isZero();
        assertThat(r.stdout()).isEqualTo("out\nerr\n");
        assertThat(r.stderr()).isEmpty();
        Path out = dir.resolve("merged");
        r = Banyan.run("run", "-n", "1", "--merge-stderr-to-stdout", "--tag-output", "--output-filename", out.toString(), "sh", "-c",
                "echo out; sleep 0.2; echo err >&2");
        assertThat(r.exit()).isZero();
        assertThat(Files.readString(out.resolve("1/rank.0/stdout"))).as("each line keeps its stream's tag, as mpirun's")
                .isEqualTo("[1,0]<stdout>:out\n[1,0]<stderr>:err\n");
        assertThat(out.resolve("1/rank.0/stderr")).doesNotExist();
    }

    /** mpiexec.hydra's -l: {@code [RANK] } before each line of either stream, as Hydra writes it. It was refused as unknown. */
    @Test
    void prependRankLabelsEachLineAsHydraDoes() throws Exception {
        for (String name : List.of("-l", "--prepend-rank", "-prepend-rank")) {
            Banyan.Result r = Banyan.run("run", "-n", "2", name, "sh", "-c", "echo out; echo err >&2");
            assertThat(r.exit()).isZero();
            assertThat(lines(r.stdout())).as(name).containsExactlyInAnyOrder("[0] out", "[1] out");
            assertThat(lines(r.stderr())).as(name).containsExactlyInAnyOrder("[0] err", "[1] err");
        }
        Banyan.Result both = Banyan.run("run", "-n", "1", "-l", "--tag-output", "true");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.stderr()).isEqualTo("banyan run: --tag-output and --prepend-rank both prefix each line with its rank: give one\n");
    }

    /**
     * mpiexec.hydra's -prepend-pattern, -outfile-pattern and -errfile-pattern, with %r, %h, %p
     * and %g as Hydra expands them (compared with mpiexec.hydra here). They were refused as unknown.
     */
    @Test
    void hydrasOutputPatterns() throws Exception {
        String host = java.net.InetAddress.getLocalHost().getHostName();
        Banyan.Result r = Banyan.run("run", "-n", "2", "-prepend-pattern", "%g:%p:%h:%r: ", "sh", "-c", "echo hi; echo err >&2");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("0:0:" + host + ":0: hi", "0:0:" + host + ":1: hi");
        assertThat(lines(r.stderr())).containsExactlyInAnyOrder("0:0:" + host + ":0: err", "0:0:" + host + ":1: err");

        r = Banyan.run("run", "-n", "2", "-outfile-pattern", dir.resolve("o.%r").toString(), "-errfile-pattern",
                dir.resolve("e/%h.%r").toString(), "sh", "-c", "echo out $PMI_RANK; echo err $PMI_RANK >&2");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEmpty();
        assertThat(dir.resolve("o.1")).hasContent("out 1");
        assertThat(dir.resolve("e/" + host + ".0")).hasContent("err 0");

        r = Banyan.run("run", "-n", "2", "-l", "-outfile-pattern", dir.resolve("all").toString(), "sh", "-c", "echo out $PMI_RANK");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(Files.readString(dir.resolve("all")))).as("ranks of one file share it, labelled as asked")
                .containsExactlyInAnyOrder("[0] out 0", "[1] out 1");

        Banyan.Result both = Banyan.run("run", "-n", "1", "-outfile-pattern", "x", "--output-filename", "y", "true");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.stderr()).isEqualTo("banyan run: --output-filename and -outfile-pattern both say where the ranks' output goes: "
                + "give one\n");
        // a file that cannot be made is bad input, named, before anything starts (it was an "internal error")
        Files.writeString(dir.resolve("afile"), "");
        Banyan.Result cannot = Banyan.run("run", "-n", "1", "-outfile-pattern", dir.resolve("afile/o.%r").toString(), "true");
        assertThat(cannot.exit()).isEqualTo(2);
        assertThat(cannot.stderr()).isEqualTo("banyan run: cannot open the ranks' output files: " + dir.resolve("afile")
                + ": File exists\n");
        Banyan.Result dvm = Banyan.run("run", "--dvm", dir.resolve("none.uri").toString(), "-prepend-pattern", "%h ", "true");
        assertThat(dvm.exit()).isEqualTo(2);
        assertThat(dvm.stderr()).startsWith("banyan run: %h and %p in an output pattern name the ranks' hosts");
    }

    /**
     * mpirun's --enable-recovery and Hydra's -disable-auto-cleanup: a failed rank does not end
     * the others. They were refused as unknown.
     */
    @Test
    void aFailedRankLeavesTheOthersRunningWhenAsked() throws Exception {
        String host = java.net.InetAddress.getLocalHost().getHostName();
        for (String name : List.of("--enable-recovery", "-disable-auto-cleanup")) {
            Banyan.Result r = Banyan.run("run", "-n", "3", "--oversubscribe", name, "sh", "-c",
                    "case $PMI_RANK in 1) exit 1;; 2) sleep 0.5; exit 2;; esac; sleep 1.5; echo done");
            assertThat(r.exit()).as("the first failure's status").isEqualTo(1);
            assertThat(r.stdout()).as(name).isEqualTo("done\n");
            assertThat(lines(r.stderr())).containsExactlyInAnyOrder("banyan run: rank 1 on " + host
                    + " exited with status 1; the other ranks go on", "banyan run: rank 2 on " + host
                    + " exited with status 2; the other ranks go on");
        }
        Banyan.Result ended = Banyan.run("run", "-n", "2", "sh", "-c", "if [ $PMI_RANK = 1 ]; then exit 3; fi; sleep 5; echo done");
        assertThat(ended.exit()).isEqualTo(3);
        assertThat(ended.stdout()).as("without it, the first failure ends the job").isEmpty();
        Banyan.Result dvm = Banyan.run("run", "--dvm", dir.resolve("none.uri").toString(), "--enable-recovery", "true");
        assertThat(dvm.exit()).isEqualTo(2);
        assertThat(dvm.stderr()).isEqualTo("banyan run: --enable-recovery: a DVM ends a job at its first failed rank; run without --dvm\n");
    }

    /**
     * mpirun's -q and --report-pid, which scripts carry and banyan refused as unknown: -q keeps
     * banyan's own lines about a failed rank or a timeout off stderr (the status still says it),
     * and bad input is still named; --report-pid prints banyan's pid before the job starts.
     */
    @Test
    void quietHidesBanyansOwnLinesAndReportPidPrintsItsProcessId() throws Exception {
        Banyan.Result failed = Banyan.run("run", "-q", "-n", "2", "sh", "-c", "echo out; echo err >&2; exit $PMI_RANK");
        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.stdout()).isEqualTo("out\nout\n");
        assertThat(failed.stderr()).as("the ranks' own stderr only").isEqualTo("err\nerr\n");
        Banyan.Result timedOut = Banyan.run("run", "--quiet", "--timeout", "1", "sleep", "5");
        assertThat(timedOut.exit()).isEqualTo(124);
        assertThat(timedOut.stderr()).isEmpty();
        Banyan.Result bad = Banyan.run("run", "-q", "-n", "1", "/no/such/program");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.stderr()).isEqualTo("banyan run: program '/no/such/program' does not exist\n");
        Banyan.Result both = Banyan.run("run", "-q", "-print-all-exitcodes", "true");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.stderr()).isEqualTo("banyan run: -q hides the exit codes --print-all-exitcodes asks for: give one\n");

        // the pid comes first, then the ranks' output; it is the process that ran them
        Banyan.Result stdout = Banyan.run("run", "--report-pid", "-", "-n", "1", "sh", "-c", "echo $PPID");
        assertThat(stdout.exit()).isZero();
        List<String> out = lines(stdout.stdout());
        assertThat(out).hasSize(2);
        assertThat(out.getFirst()).matches("\\d+");
        assertThat(out.get(1)).as("the rank's parent: banyan, whose daemon runs in its JVM here").isEqualTo(out.getFirst());
        Banyan.Result stderr = Banyan.run("run", "-report-pid", "+", "true");
        assertThat(stderr.exit()).isZero();
        assertThat(stderr.stdout()).isEmpty();
        assertThat(stderr.stderr()).matches("\\d+\n");
        Path file = dir.resolve("pid");
        Banyan.Result inFile = Banyan.run("run", "--report-pid", file.toString(), "true");
        assertThat(inFile.exit()).isZero();
        assertThat(Files.readString(file)).matches("\\d+\n");
        Banyan.Result noDir = Banyan.run("run", "--report-pid", dir.resolve("no/such/pid").toString(), "sh", "-c",
                "touch " + dir.resolve("ran"));
        assertThat(noDir.exit()).isEqualTo(2);
        assertThat(noDir.stderr()).startsWith("banyan run: --report-pid: cannot write '" + dir.resolve("no/such/pid") + "'");
        assertThat(dir.resolve("ran")).as("nothing launched").doesNotExist();
    }

    @Test
    void outputFilenameFilesAreTaggedAndTimeStampedWhenAsked() throws Exception {
        Path out = dir.resolve("tagged");
        Banyan.Result r = Banyan.run("run", "-n", "2", "--tag-output", "--timestamp-output", "--output-filename",
                out.toString(), "sh", "-c", "echo out$PMI_RANK; printf err$PMI_RANK >&2");
        assertThat(r.exit()).isZero();
        assertThat(r.stdout()).as("copied as the files have it").containsPattern("\\[1,0\\]<stdout>:out0\n");
        String stamp = "\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\]";
        assertThat(Files.readString(out.resolve("1/rank.1/stdout"))).matches(stamp + "\\[1,1\\]<stdout>:out1\n");
        // an unterminated last line is ended and tagged too
        assertThat(Files.readString(out.resolve("1/rank.0/stderr"))).matches(stamp + "\\[1,0\\]<stderr>:err0\n");
    }

    @Test
    void mpmdContextsGetConsecutiveRanksAndTheirAppnum() throws Exception {
        Banyan.Result r = Banyan.run("run", "--oversubscribe", "-n", "1", "sh", "-c", "echo a $PMI_RANK $BANYAN_APPNUM",
                ":", "-n", "2", "sh", "-c", "echo b $PMI_RANK $BANYAN_APPNUM");
        assertThat(r.exit()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("a 0 0", "b 1 1", "b 2 1");
    }

    @Test
    void stdinGoesToRankZeroOnly() throws Exception {
        Banyan.Result r = Banyan.runWithStdin("line one\nline two\n", "run", "-n", "2", "sh", "-c",
                "echo rank$PMI_RANK:$(wc -l)");
        assertThat(r.exit()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("rank0:2", "rank1:0");
    }

    @Test
    void stdinNoneGivesEveryRankAnEmptyStdin() throws Exception {
        Banyan.Result r = Banyan.runWithStdin("data\n", "run", "-n", "1", "--stdin", "none", "sh", "-c", "echo $(wc -c)");
        assertThat(r.stdout()).isEqualTo("0\n");
    }

    @Test
    void exportedVariablesAndWorkingDirectory() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "1", "-x", "GREETING=hi there", "--wdir", dir.toString(), "sh", "-c",
                "echo \"$GREETING\"; pwd");
        assertThat(lines(r.stdout())).containsExactly("hi there", dir.toRealPath().toString());
    }

    @Test
    void largeOutputArrivesWhole() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "sh", "-c", "head -c 5000000 /dev/zero | tr '\\0' x; echo");
        assertThat(r.exit()).isZero();
        assertThat(r.stdout().length()).isEqualTo(2 * 5_000_001);
        assertThat(r.stdout().chars().filter(c -> c == 'x').count()).isEqualTo(10_000_000);
    }

    @Test
    void badInputIsOneLineStatus2AndNothingRuns() throws Exception {
        Path witness = dir.resolve("ran");
        String prog = "touch " + witness;
        String[][] cases = {
            {"run", "--no-such-option", "sh", "-c", prog},
            {"run", "-n", "0", "sh", "-c", prog},
            {"run", "-n", "64", "sh", "-c", prog},
            {"run", "--host", "no-such-host.invalid", "sh", "-c", prog},
            {"run", "--hostfile", dir.resolve("missing").toString(), "sh", "-c", prog},
            {"run", "-n", "1", "./not-a-program"},
            {"run", "-n", "1", "sh", "-c", prog, ":"},
            {"run", "--timeout", "soon", "sh", "-c", prog},
        };
        for (String[] c : cases) {
            Banyan.Result r = Banyan.run(c);
            assertThat(r.exit()).as(String.join(" ", c)).isEqualTo(2);
            assertThat(lines(r.stderr())).as(String.join(" ", c)).hasSize(1).first().asString().startsWith("banyan run: ");
            assertThat(witness).as(String.join(" ", c)).doesNotExist();
        }
        Files.writeString(dir.resolve("hosts"), "localhost slots=2\nlocalhost slots=two\n");
        Banyan.Result r = Banyan.run("run", "--hostfile", dir.resolve("hosts").toString(), "true");
        assertThat(r.stderr()).isEqualTo("banyan run: hostfile " + dir.resolve("hosts")
                + ":2: slots must be a positive integer, got 'two'\n");
        assertThat(r.exit()).isEqualTo(2);
    }

    @Test
    void hostfileInEitherSyntaxGivesSlots() throws Exception {
        Files.writeString(dir.resolve("ompi"), "localhost slots=3\n");
        Files.writeString(dir.resolve("hydra"), "localhost:3\n");
        for (String f : List.of("ompi", "hydra")) {
            Banyan.Result r = Banyan.run("run", "--hostfile", dir.resolve(f).toString(), "sh", "-c", "echo $PMI_SIZE");
            assertThat(lines(r.stdout())).containsExactly("3", "3", "3");
        }
    }

    @Test
    void versionAndHelp() throws Exception {
        assertThat(Banyan.run("--version").stdout()).startsWith("banyan ");
        Banyan.Result help = Banyan.run("run", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.stdout()).contains("--oversubscribe").contains("--tag-output").contains("--timeout");
    }

    /**
     * Names, arguments and variables outside ASCII reach the rank unchanged whatever the user's
     * locale: under LC_ALL=C banyan asked cat for 'h??.txt'. The rank still gets the user's
     * LC_ALL, not the one banyan's JVM runs in. The bytes are made by the shell (printf's octal
     * escapes), so the test does not depend on its own JVM's locale.
     */
    @Test
    void textOutsideAsciiReachesTheRankUnderTheCLocale(@org.junit.jupiter.api.io.TempDir Path files) throws Exception {
        String script = """
                name="$1/$(printf 'h\\303\\251 \\344\\270\\226.txt')"
                printf 'bonjour\\n' > "$name"
                LC_ALL=C "$0" run -n 1 cat "$name" || exit 1
                LC_ALL=C "$0" run -n 1 -x "V=$(printf '\\303\\251')" sh -c 'printf "%s|%s|%s" "$LC_ALL" "$V" "$0"' \\
                    "$(printf '\\303\\274')"
                """;
        Process p = new ProcessBuilder("bash", "-c", script, Banyan.SCRIPT.toString(), files.toString())
                .redirectInput(new java.io.File("/dev/null")).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isZero();
        assertThat(new String(out, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("bonjour\nC|\u00e9|\u00fc");
    }

    /**
     * Run from a directory that was removed meanwhile (a build tree cleaned in another
     * terminal), a JVM cannot start: banyan says so in one line, status 2, nothing launched
     * (mpirun says it in four lines, Hydra crashes).
     */
    @Test
    void aRemovedCurrentDirectoryIsOneLineAndNothingStarts() throws Exception {
        Path gone = Files.createDirectory(dir.resolve("gone"));
        Path mark = dir.resolve("ran");
        Process p = new ProcessBuilder("sh", "-c", "cd \"$1\" && rmdir \"$1\" && exec \"$0\" run -n 1 touch \"$2\"",
                Banyan.SCRIPT.toString(), gone.toString(), mark.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String err = new String(p.getErrorStream().readAllBytes());
        assertThat(p.waitFor()).as(err).isEqualTo(2);
        assertThat(err).contains("banyan: the current directory no longer exists (it was removed); change to one that does\n")
                .doesNotContain("java.lang").doesNotContain("\tat ");
        assertThat(mark).doesNotExist();
    }

    /**
     * A script saved with Windows line endings names "/bin/sh\r" as its interpreter, and exec
     * says only "No such file or directory", as if the script itself were missing (mpirun and
     * mpiexec say that): banyan names the cause before anything starts, status 2.
     */
    @Test
    void aScriptWithWindowsLineEndingsIsNamedAsSuchAndNothingStarts() throws Exception {
        Path script = dir.resolve("job.sh");
        Path mark = dir.resolve("ran");
        Files.writeString(script, "#!/bin/sh\r\ntouch " + mark + "\r\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Banyan.Result r = Banyan.run("run", "-n", "2", script.toString());
        assertThat(r.exit()).as(r.stderr()).isEqualTo(2);
        assertThat(r.stderr()).isEqualTo("banyan run: program '" + script + "' has Windows line endings: its #! line names the"
                + " interpreter '/bin/sh\\r', which does not exist (dos2unix fixes the script)\n");
        assertThat(mark).doesNotExist();
    }

    /** An interpreter missing where a rank starts is named in the rank's line (it may exist on other hosts: not refused before). */
    @Test
    void aScriptWhoseInterpreterIsMissingSaysWhichItIs() throws Exception {
        Path script = dir.resolve("job.sh");
        Files.writeString(script, "#!/nonexistent/interp\necho hi\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Banyan.Result r = Banyan.run("run", "-n", "1", script.toString());
        assertThat(r.exit()).as(r.stderr()).isEqualTo(127);
        assertThat(r.stderr()).contains("rank 0 on ").contains(" could not start: " + script + ": No such file or directory (the"
                + " script names the interpreter '/nonexistent/interp' on its #! line, which does not exist on this host)");
    }

    /**
     * A script with no #! line runs from a shell and under mpiexec.hydra (execvp hands it to
     * /bin/sh); mpirun and glibc's posix_spawn say "Exec format error". banyan runs it, as Hydra.
     */
    @Test
    void aScriptWithoutAHashBangLineRunsAsUnderHydra() throws Exception {
        Path script = dir.resolve("plain.sh");
        Files.writeString(script, "echo \"ran with $1\"\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Banyan.Result r = Banyan.run("run", "-n", "2", script.toString(), "an argument");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("ran with an argument\nran with an argument\n");
    }

    /**
     * A rank that exits with 140 is not one killed by signal 12, though both give status 140 (as
     * mpirun tells "Exit code: 140" from "exited on signal 12"): the daemon reads the wait status.
     */
    @Test
    void anExitStatusAbove128IsNotTakenForASignal() throws Exception {
        Banyan.Result exited = Banyan.run("run", "-n", "1", "sh", "-c", "exit 140");
        assertThat(exited.exit()).isEqualTo(140);
        assertThat(exited.stderr()).startsWith("banyan run: rank 0 on ").endsWith(" exited with status 140; ending the job\n")
                .hasLineCount(1);
        Banyan.Result killed = Banyan.run("run", "-n", "1", "sh", "-c", "kill -USR2 $$");
        assertThat(killed.exit()).isEqualTo(140);
        assertThat(killed.stderr()).startsWith("banyan run: rank 0 on ")
                .endsWith(" was killed by signal 12 (SIGUSR2); ending the job\n").hasLineCount(1);
    }
}
