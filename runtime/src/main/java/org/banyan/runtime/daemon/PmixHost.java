package org.banyan.runtime.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.banyan.core.daemon.DaemonAction;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.pmix.PmixRegistration;
import org.banyan.pmix.PmixServer;
import org.banyan.pmix.PmixUnavailableException;
import org.banyan.runtime.os.FileTree;

/**
 * What a daemon does for its PMIx jobs with the process's {@link PmixServer}: registers each
 * job before its ranks start, gives every rank the server's variables (or the reason it cannot
 * start), turns the server's upcalls into daemon events, carries out the core's PMIx actions,
 * and removes what each job left here. The server's classes are loaded on the first PMIx job
 * only.
 */
final class PmixHost {
    private final String host;
    private final Consumer<DaemonEvent> post;
    private final RankGuard guard;
    /** Where a job's Open MPI shared-memory directory goes, by job. */
    private final IntFunction<Path> sharedDirectory;
    /** Namespace by job; why a job's ranks cannot be served here, by job; each job's shared-memory directory. */
    private final Map<Integer, String> jobs = new HashMap<>();
    private final Map<Integer, String> failures = new HashMap<>();
    private final Map<Integer, Path> shared = new HashMap<>();
    private boolean used;

    PmixHost(String host, Consumer<DaemonEvent> post, RankGuard guard, IntFunction<Path> sharedDirectory) {
        this.host = host;
        this.post = post;
        this.guard = guard;
        this.sharedDirectory = sharedDirectory;
        // the server may be made before any job of ours registers (banyan run starts it while it
        // reads the launch, a DVM's daemon at once): its files go with this daemon however it ends
        org.banyan.pmix.PmixDirectory.whenMade(dir -> guard.owns(dir.toString()));
    }

    /**
     * Starts the server now, in the background, for the jobs to come: a DVM's daemon serves job
     * after job, most of them through PMIx, and the first need not wait for the start.
     */
    void warm() {
        if (PmixServer.installed()) {
            used = true;
            PmixServer.startSoon(Path.of(System.getProperty("java.io.tmpdir")));
        }
    }

    /**
     * Registers a PMIx job with the process's server (started on first use); when that cannot be
     * done, the job's ranks here fail to start with the reason.
     */
    void serve(PmixRegistration reg) {
        used = true;
        try {
            PmixServer server = server(); // its directory is the guard's already (PmixDirectory)
            server.register(reg, new PmixServer.Listener() {
                @Override
                public void connected(int jobId, int rank) {
                    post.accept(new DaemonEvent.PmixConnected(jobId, rank));
                }

                @Override
                public void finalized(int jobId, int rank) {
                    post.accept(new DaemonEvent.PmixFinalized(jobId, rank));
                }

                @Override
                public void fence(int jobId, byte[] blob) {
                    post.accept(new DaemonEvent.PmixFence(jobId, blob));
                }

                @Override
                public void abort(int jobId, int rank, int status, String message) {
                    // Open MPI's MPI_Abort says "N/A" when the program gave no message: nothing to add to the line
                    post.accept(new DaemonEvent.PmixAbort(jobId, rank, status, "N/A".equals(message) ? "" : message));
                }

                @Override
                public void modexRequest(int jobId, int rank) {
                    post.accept(new DaemonEvent.PmixModexRequest(jobId, rank));
                }

                @Override
                public void modexData(int token, byte[] blob) {
                    post.accept(new DaemonEvent.PmixModexData(token, blob));
                }

                @Override
                public void nameRequest(int jobId, int token, int op, String name, String value) {
                    post.accept(new DaemonEvent.PmixNameRequest(jobId, token, op, name, value));
                }

                @Override
                public void spawn(int jobId, int token, java.util.List<org.banyan.core.job.AppContext> apps,
                                  java.util.List<String> hosts) {
                    post.accept(new DaemonEvent.PmixSpawn(jobId, token, apps, hosts));
                }
            });
            jobs.put(reg.jobId(), reg.nspace());
            if (reg.ranks().length == 0) {
                return; // a peer's namespace, registered so that this server can connect the two
            }
            // Open MPI names its shared-memory segments after the host and a local rank, and only
            // removes them when its ranks end cleanly: in a directory of the daemon's, a rank
            // killed by a signal or MPI_Abort leaves nothing in /dev/shm (and two daemons on one
            // machine, as with --launcher local, do not collide)
            Path dir = sharedDirectory.apply(reg.jobId());
            try {
                Files.createDirectories(dir);
                guard.owns(dir.toString());
                shared.put(reg.jobId(), dir);
            } catch (IOException e) {
                System.err.println("banyand: cannot create " + dir + ": " + e.getMessage());
            }
        } catch (PmixUnavailableException e) {
            if (!reg.pmiToo()) { // served PMI as well, its ranks start with that alone: an Open MPI rank then shows as a singleton
                failures.put(reg.jobId(), "cannot serve PMIx on " + host + ": " + e.getMessage());
            }
        }
    }

    /** Whether the rank's job is a PMIx job of this daemon's (served, or failed to be). */
    boolean serves(RankLaunch l) {
        return jobs.containsKey(l.jobId()) || failures.containsKey(l.jobId());
    }

    /** A PMIx job's rank: the server's variables on top of its own (or the reason it cannot start). */
    RankLaunch withPmix(RankLaunch l) {
        String failure = failures.get(l.jobId());
        Map<String, String> env = new HashMap<>(l.env());
        if (failure == null) {
            try {
                env.putAll(server().clientEnvironment(jobs.get(l.jobId()), l.rank()));
                Path dir = shared.get(l.jobId());
                String given = l.env().get("OMPI_MCA_btl_vader_backing_directory");
                // a spawned job's variables come from its parent's rank, this daemon's directory for the parent included
                boolean ours = given != null && shared.values().stream().anyMatch(p -> p.toString().equals(given));
                if (dir != null && (given == null || ours)) {
                    env.put("OMPI_MCA_btl_vader_backing_directory", dir.toString());
                }
            } catch (PmixUnavailableException e) {
                failure = "cannot serve PMIx on " + host + ": " + e.getMessage();
            }
        }
        return new RankLaunch(l.jobId(), l.rank(), l.executable(), l.args(), env, l.workdir(), l.workdirRequired(),
                l.stdinFromHead(), l.stdoutFile(), l.stderrFile(), l.stdinFile(), l.cpus(), failure != null ? failure : l.bindError());
    }

    /** Carries out one of the core's PMIx actions (registration happens before the ranks start, in {@link #serve}). */
    void execute(DaemonAction action) {
        switch (action) {
            case DaemonAction.PmixFenceDone(int jobId, var blobs) -> {
                if (jobs.containsKey(jobId)) {
                    server().fenceDone(jobId, blobs);
                }
            }
            case DaemonAction.PmixModexFetch(int jobId, int rank, int token) -> {
                if (!jobs.containsKey(jobId) || !server().fetchLocal(jobId, rank, token)) {
                    post.accept(new DaemonEvent.PmixModexData(token, null));
                }
            }
            case DaemonAction.PmixModexDone(int jobId, int rank, byte[] blob) -> {
                if (jobs.containsKey(jobId)) {
                    server().modexDone(jobId, rank, blob);
                }
            }
            case DaemonAction.PmixNameReply(int jobId, int token, boolean ok, String text) -> {
                if (jobs.containsKey(jobId)) {
                    server().nameReply(token, ok, text);
                }
            }
            default -> throw new IllegalArgumentException("not a PMIx action: " + action);
        }
    }

    /**
     * A DVM's job is over everywhere (not only here: a job it spawned or connected to may still
     * use its namespace until then): the server forgets the namespace, and the job's files go.
     */
    void forget(int jobId) {
        if (jobs.remove(jobId) != null) {
            server().deregister(jobId);
        }
        failures.remove(jobId);
        Path dir = shared.remove(jobId);
        if (dir != null) {
            FileTree.delete(dir);
        }
    }

    /** The daemon ends: the server, if this daemon started one, and every job's files. */
    void close() {
        if (used) {
            PmixServer.shutdown();
        }
        for (Path dir : shared.values()) {
            FileTree.delete(dir);
        }
    }

    private static PmixServer server() {
        return PmixServer.start(Path.of(System.getProperty("java.io.tmpdir")));
    }
}
