package org.banyan.cli;

/** Help texts. */
final class Help {
    private Help() {}

    static final String MAIN = """
            Usage: banyan COMMAND [OPTIONS]

            Commands:
              run       launch a parallel program (mpirun/mpiexec conventions)
              sim       simulate a launch: banyan sim launch --hosts N [--spawn-degree K | --launch star]

            Options:
              --version  print the version
              --help     print this help; 'banyan run --help' for the options of run
            """;

    static final String RUN = """
            Usage: banyan run [OPTIONS] PROGRAM [ARGS...] [: [-n N] PROGRAM [ARGS...]]...

            Launch N copies of PROGRAM. Unmodified MPICH-family programs wire up through PMI-1.
            Separate the contexts of an MPMD job with ':'. -n belongs to its context; all other
            options apply to the whole job.

            Placement:
              -n, -np N               number of ranks (default: one per slot)
              -H, --host LIST         hosts as NAME[:SLOTS],...; a name without :SLOTS adds one slot
              --hostfile, -f FILE     hostfile: 'NAME slots=N' (Open MPI) or 'NAME:N' (Hydra) lines
              --map-by slot|node      fill each host's slots first (slot, default) or round robin (node)
              --oversubscribe         allow more ranks than slots (default slots: this machine's cores)

            Environment and I/O:
              -x VAR[=VALUE]          export VAR (with its current value, or VALUE) to every rank
              --wdir DIR              working directory of the ranks
              --stdin RANK|none       which rank reads banyan's stdin (default 0)
              --tag-output            prefix each line with [JOBID,RANK]<stdout>: or <stderr>:
              --timestamp-output      prefix each line with the time it arrived
              --output-filename DIR   write DIR/1/rank.N/stdout and stderr instead of the terminal

            Control:
              --timeout SECONDS       end the job after SECONDS (exit status 124)

            Daemons (one per host, started along a tree; see docs/multihost.md):
              --launcher L            inproc: one daemon inside banyan (default on this machine);
                                      ssh (default for other hosts); slurm (default inside an
                                      allocation, whose nodes are then the hosts); local: a
                                      daemon process per host name, all on this machine
              --launch-agent "CMD"    remote shell instead of "ssh -x" (implies --launcher ssh)
              --spawn-degree K        children per daemon in the launch tree (default 32);
                                      0 spawns along the --routing tree
              --routing T             the overlay daemons reach each other by: radix:K
                                      (default radix:32), binomial, or direct (each daemon
                                      linked to the head, which relays)
              --modex full|lazy       full: every fence gives every daemon every key's value;
                                      lazy (default): values move on a rank's first get
              --launch star           baseline: the head starts and talks to every daemon
              --static-ports          in a Slurm allocation: one srun starts every daemon and
                                      each finds its tree parent at a port derived from the job
              --report-launch         print phase times and, per daemon, links and messages

            Exit status: 0 if every rank exits 0; otherwise that of the first rank to fail
            (128+N for signal N), or the code given to MPI_Abort; 124 on --timeout; 1 when a
            daemon is lost or cannot start; 2 for bad input (nothing is launched). Ctrl-C is forwarded to the ranks; a second
            Ctrl-C kills them.
            """;
}
