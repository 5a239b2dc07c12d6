package org.banyan.cli.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.cli.options.UsageException;
import org.banyan.core.job.WireUp;
import org.banyan.pmix.ElfNeeded;
import org.banyan.pmix.ProgramLookup;
import org.banyan.pmix.RawPaths;

/**
 * The programs of a {@code banyan run}, found and checked before anything starts: looked up as
 * mpirun looks them up (along {@code PATH} or {@code --path}, then in the ranks' working
 * directory), and read to choose how their ranks wire up (PMIx for Open MPI, PMI otherwise).
 */
final class RankPrograms {
    /** {@code --path}: where programs are looked for instead of PATH, or null. */
    private final String searchPath;
    private final String path;

    /** @param searchPath mpirun's {@code --path}, or null; {@code path} this environment's PATH */
    /** Where a look that does not come back is said ({@link SlowLookNotice}): the user's stderr. */
    private final java.io.PrintStream notices;

    RankPrograms(String searchPath, String path, java.io.PrintStream notices) {
        this.searchPath = searchPath;
        this.path = path;
        this.notices = notices;
    }

    /** A program's file, and whether it was found along PATH (its name then goes as given). */
    private record Found(Path file, boolean onPath) {}

    /** What was found, by directory and name: a run asks for each program twice (checked, then started). */
    private final Map<String, Found> found = new HashMap<>();

    /**
     * What the daemons start for {@code program}, whose ranks start in {@code dir}: the name as
     * given when it is on PATH (each host looks it up again), else the file found along
     * {@code --path} or in {@code dir}.
     */
    String executable(String program, Path dir) throws UsageException {
        if (program.contains("/")) {
            return program;
        }
        Found f = lookUp(program, dir);
        return f.onPath() ? program : RawPaths.shown(f.file());
    }

    /**
     * The program must exist and be executable where the daemon will start it; returns its file.
     * A name not found along the path is looked for in the ranks' working directory, as mpirun
     * does ({@code mpirun -n 2 a.out}); mpiexec.hydra fails there.
     */
    Path check(String program, Path dir) throws UsageException {
        return lookUp(program, dir).file();
    }

    private Found lookUp(String program, Path dir) throws UsageException {
        String key = dir + "\0" + program;
        Found known = found.get(key);
        if (known != null) {
            return known;
        }
        Path p = ProgramLookup.find(program, dir, searchPath != null ? searchPath : path);
        boolean onPath = p != null && searchPath == null && !program.contains("/");
        if (p == null && !program.contains("/") && Files.isRegularFile(RawPaths.resolve(dir, program))
                && Files.isExecutable(RawPaths.resolve(dir, program))) {
            p = RawPaths.resolve(dir, program);
        }
        if (p == null) {
            throw new UsageException("program '" + program + "' not found in " + (searchPath != null ? "--path " + searchPath : "PATH")
                    + " or in " + dir);
        }
        if (!Files.exists(p)) {
            throw new UsageException("program '" + program + "' does not exist");
        }
        if (Files.isDirectory(p) || !Files.isExecutable(p)) {
            throw new UsageException("program '" + program + "' is not executable");
        }
        // A script's interpreter may be where the ranks run and not here; a carriage return in
        // its name is never meant, and exec would call the script itself missing.
        ProgramLookup.BadInterpreter crlf = ProgramLookup.windowsLineEndings(p, dir);
        if (crlf != null) {
            throw new UsageException("program '" + program + "' " + crlf.words());
        }
        Found f = new Found(p, onPath);
        found.put(key, f);
        return f;
    }

    /**
     * Checks every program, and says how the job's ranks are served: {@code mpi} {@code pmi} or
     * {@code pmix} as given; {@code auto} reads each program's ELF file: PMIx for Open MPI (or
     * libpmix), PMI for MPICH and for a JVM (banyan-comm speaks PMI-2), and both side by side for
     * anything whose MPI cannot be known before it starts (an interpreter, a script, a wrapper
     * such as {@code env} or {@code time}, a static binary). Served both ways, a daemon without
     * libpmix serves PMI alone, and a rank that then runs Open MPI as a singleton is caught. A
     * PMIx-only job needs libpmix on this host (and on every other; a host without it fails its
     * ranks with the reason). {@code monitored} ({@code --monitor})
     * refuses MPICH programs, whose messages Banyan cannot count.
     */
    WireUp wireUp(List<String> programs, Path dir, String mpi, boolean monitored) throws UsageException {
        boolean auto = mpi.equals("auto");
        boolean anyPmix = false;
        boolean anyPmi = false;
        boolean anyUnknown = false;
        String needs = mpi.equals("pmix") ? "--mpi pmix" : null;
        for (String name : programs) {
            Path program;
            List<String> needed;
            try (SlowLookNotice slow = new SlowLookNotice(name, notices)) {
                program = check(name, dir);
                // read only when it decides something: every banyan run passes here
                needed = monitored || auto ? ElfNeeded.of(program) : List.of();
            }
            String mpich = ElfNeeded.mpichLibrary(needed);
            if (monitored && mpich != null) { // it ran to its end, and said only then that nothing was counted
                throw new UsageException("--monitor counts the messages of Java ranks (banyan-comm) and of Open MPI programs; '"
                        + name + "' is built with MPICH (" + mpich + "), whose messages Banyan cannot count");
            }
            if (auto) {
                switch (ElfNeeded.wireUp(needed)) {
                    case PMIX -> {
                        anyPmix = true;
                        needs = needs != null ? needs : "'" + name + "' (it needs " + ElfNeeded.pmixLibrary(needed) + ")";
                    }
                    case PMI -> anyPmi = true;
                    case BOTH -> anyUnknown = true;
                }
            }
        }
        WireUp how = switch (mpi) {
            case "pmi" -> WireUp.PMI;
            case "pmix" -> WireUp.PMIX;
            default -> anyUnknown || (anyPmix && anyPmi) ? WireUp.BOTH : anyPmix ? WireUp.PMIX : WireUp.PMI;
        };
        // served both ways, a job needs no libpmix (a daemon without it serves PMI alone)
        if (how == WireUp.PMIX && !ElfNeeded.pmixInstalled()) {
            throw new UsageException(needs + " wires up through PMIx, and libpmix.so.2 is not installed here "
                    + "(Debian: apt-get install libpmix2)");
        }
        return how;
    }
}
