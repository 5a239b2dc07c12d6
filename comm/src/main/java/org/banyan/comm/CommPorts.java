package org.banyan.comm;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.client.Banyan;
import org.banyan.client.BanyanException;

/**
 * MPI_Open_port, MPI_Comm_accept and MPI_Comm_connect, and the name service's calls
 * (MPI_Publish_name, MPI_Lookup_name, MPI_Unpublish_name), between groups of any jobs of one run
 * or one DVM. A port is a name no one else draws. Each connect claims the next free number of
 * the port by publishing {@code PORT/claim/K} (a publish of a taken name is refused, so two
 * connects never share one); the port's K-th accept waits for that claim, and the two groups then
 * build their {@link JointWorld} under {@code PORT/K}, the accepting group first.
 *
 * <p>After its K-th accept, the accepting root publishes {@code PORT/next} = K + 1, where a
 * connect starts trying: every number below it was claimed and accepted, so none of them is
 * free, and a number given back by a connect that failed is at least that (an accept waits on
 * it). A hint that is missing or behind only costs tries; the K-th connect to a port took K
 * round trips to the name service before it.
 */
final class CommPorts {
    /** How long a connect waits for an accept, and either for the other's endpoints: seconds. */
    static final String TIMEOUT_VARIABLE = "BANYAN_COMM_CONNECT_TIMEOUT";
    /** A connect tries at most this many numbers of a port. */
    static final int CLAIMS_MAX = 100_000;
    private static final String PREFIX = "banyan-comm-port.";
    private static final SecureRandom RANDOM = new SecureRandom();
    /**
     * The ports this process opened, each with how many connects it accepted: the process's, as
     * MPI's ports are, not one world's, so that a communicator merged from an accept's
     * intercommunicator accepts on the port again (the server loop that grows a communicator one
     * client at a time). Names are drawn at random: processes sharing a JVM (tests) do not meet.
     */
    static final java.util.Map<String, AtomicInteger> PORTS = new java.util.concurrent.ConcurrentHashMap<>();

    private CommPorts() {}

    static String open(Comm comm) {
        Banyan job = job(comm, "openPort");
        String port = PREFIX + job.jobId() + "." + comm.engine.rank + "." + HexFormat.of().formatHex(RANDOM.generateSeed(12));
        PORTS.put(port, new AtomicInteger());
        return port;
    }

    /** Forgets the port: the claims of the connects it accepted leave the name service. */
    static void close(Comm comm, String port) {
        AtomicInteger accepted = PORTS.remove(port);
        if (accepted == null) {
            throw new IllegalArgumentException("closePort: " + port + " is not a port this process opened");
        }
        for (int k = 0; k < accepted.get(); k++) {
            try {
                comm.engine.job.unpublishName(port + "/claim/" + k);
            } catch (BanyanException e) {
                // already gone
            }
        }
        try {
            comm.engine.job.unpublishName(hintName(port));
        } catch (BanyanException e) {
            // no accept ever went through
        }
    }

    static Intercomm accept(Comm comm, String port, int root) {
        comm.checkOpen();
        int wait = timeout("accept");
        String answer = null;
        if (comm.rank() == root) {
            AtomicInteger accepted = PORTS.get(port);
            if (comm.engine.job == null || accepted == null) {
                answer = "error " + port + " is not a port this process opened (openPort)";
            } else {
                int k = accepted.getAndIncrement();
                try {
                    comm.engine.job.lookupName(port + "/claim/" + k, null);
                    answer = "ok " + port + "/" + k;
                    hint(comm.engine.job, port, k + 1);
                } catch (RuntimeException e) { // any: the group waits for the root's word
                    answer = "error " + e.getMessage();
                }
            }
        }
        answer = JointWorld.bcastText(comm, answer, root);
        if (answer.startsWith("error ")) {
            throw new CommException("accept: " + answer.substring(6));
        }
        return JointWorld.build(comm, root, comm.engine.job, answer.substring(3), true,
                new JointWorld.Side("accept", "the connecting group did not go on", wait));
    }

    static Intercomm connect(Comm comm, String port, int root) {
        comm.checkOpen();
        int wait = timeout("connect");
        String answer = null;
        if (comm.rank() == root) {
            Banyan job = comm.engine.job;
            if (job == null) {
                answer = "error this process is not a rank of a Banyan job";
            } else if (port == null || !port.startsWith(PREFIX)) {
                answer = "error " + port + " is not a port (openPort gives them)";
            } else {
                answer = "error every number of " + port + " is taken";
                int from = hint(job, port);
                for (int k = from; k < from + CLAIMS_MAX; k++) {
                    try {
                        job.publishName(port + "/claim/" + k, "claimed");
                        answer = "ok " + port + "/" + k;
                        break;
                    } catch (RuntimeException e) { // any: the group waits for the root's word
                        if (!(e instanceof BanyanException) || !String.valueOf(e.getMessage()).endsWith("name_in_use")) {
                            answer = "error " + e.getMessage();
                            break;
                        }
                    }
                }
            }
        }
        answer = JointWorld.bcastText(comm, answer, root);
        if (answer.startsWith("error ")) {
            throw new CommException("connect: " + answer.substring(6));
        }
        String service = answer.substring(3);
        String port0 = service.substring(0, service.lastIndexOf('/'));
        try {
            return JointWorld.build(comm, root, comm.engine.job, service, false,
                    new JointWorld.Side("connect", "no one accepted on " + port0, wait));
        } catch (CommException e) {
            if (comm.rank() == root) { // the number goes back, for the next connect to take
                try {
                    comm.engine.job.unpublishName(port0 + "/claim/" + service.substring(service.lastIndexOf('/') + 1));
                } catch (BanyanException gone) {
                    // an accept took it after all, or the port was closed
                }
            }
            throw e;
        }
    }

    /** The name of a port's hint: the number its next connect tries first. */
    static String hintName(String port) {
        return port + "/next";
    }

    /** Moves the hint on to {@code next} (unpublished then published: a connect in between starts lower). */
    private static void hint(Banyan job, String port, int next) {
        try {
            job.unpublishName(hintName(port));
        } catch (RuntimeException e) { // any: a hint never fails the accept that made it
            // none yet
        }
        try {
            job.publishName(hintName(port), Integer.toString(next));
        } catch (RuntimeException e) {
            // a hint only: connects then try from lower
        }
    }

    /** Where a connect starts trying: the port's hint, or 0 (missing or garbled: a hint only). */
    private static int hint(Banyan job, String port) {
        try {
            int next = Integer.parseInt(job.lookupName(hintName(port), Duration.ZERO));
            return Math.clamp(next, 0, Integer.MAX_VALUE - CLAIMS_MAX);
        } catch (RuntimeException e) { // missing, garbled, or the name service not there: a hint only
            return 0;
        }
    }

    static void publish(Comm comm, String service, String port) {
        try {
            job(comm, "publishName").publishName(service, port);
        } catch (BanyanException e) {
            throw new CommException("publishName: " + (e.getMessage().endsWith("name_in_use") ? service + " is already published"
                    : e.getMessage()));
        }
    }

    static void unpublish(Comm comm, String service) {
        try {
            job(comm, "unpublishName").unpublishName(service);
        } catch (BanyanException e) {
            throw new CommException("unpublishName: " + (e.getMessage().endsWith("name_not_found") ? service + " is not published"
                    : e.getMessage()));
        }
    }

    static String lookup(Comm comm, String service, Duration wait) {
        try {
            return job(comm, "lookupName").lookupName(service, wait);
        } catch (BanyanException e) {
            String why = e.getMessage();
            throw new CommException("lookupName: " + (why.endsWith("name_not_found") ? service + " is not published"
                    : why.endsWith("timeout") ? service + " was not published within " + wait.toSeconds() + " s" : why));
        }
    }

    private static Banyan job(Comm comm, String what) {
        if (comm.engine.job == null) {
            throw new CommException(what + ": this process is not a rank of a Banyan job");
        }
        return comm.engine.job;
    }

    private static int timeout(String what) {
        return JointWorld.seconds(what, TIMEOUT_VARIABLE, CommSpawn.DEFAULT_TIMEOUT);
    }
}
