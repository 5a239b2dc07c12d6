package org.banyan.cli;

import org.banyan.cli.run.RunArguments;

/** Help texts. */
final class Help {
    private Help() {}

    static final String MAIN = """
            Usage: banyan COMMAND [OPTIONS]

            Commands:
              run       launch a parallel program (mpirun/mpiexec conventions)
              dvm       a persistent DVM: banyan dvm start|status|stop (see banyan dvm --help)
              submit    run tasks on a DVM: banyan submit -- CMD ARGS, or --tasks FILE
              wait      wait for tasks of a DVM (by id, or all): banyan wait [ID...]
              tasks     list tasks of a DVM and their states (by id, or the unfinished)
              cancel    cancel tasks of a DVM: banyan cancel ID... | --all
              pilot     banyan pilot report SESSION_DIR: figures and plots of a session's profile
              monitor   banyan monitor DIR: communication matrices and heat maps of a --monitor run
              place     banyan place --matrix M: TreeMatch placement of a run's ranks, as a rankfile
              sim       simulate a launch: banyan sim launch --hosts N [--spawn-degree K | --launch star];
                        or a workload of malleable jobs, fixed vs flexible: banyan sim workload

            Options:
              --version  print the version
              --help     print this help; 'banyan run --help' for the options of run
            """;

    static final String RUN = """
            Usage: banyan run [OPTIONS] PROGRAM [ARGS...] [: [-n N] PROGRAM [ARGS...]]...

            Launch N copies of PROGRAM. Unmodified MPICH-family programs wire up through PMI-1/PMI-2.
            Separate the contexts of an MPMD job with ':'. -n belongs to its context; all other
            options apply to the whole job.

            %s
            Exit status: 0 if every rank exits 0; otherwise that of the first rank to fail
            (128+N for signal N), or the code given to MPI_Abort; 124 on --timeout; 1 when a
            daemon is lost or cannot start; 2 for bad input (nothing is launched). Ctrl-C is forwarded to the ranks; a second
            Ctrl-C kills them.
            """.formatted(RunArguments.OPTIONS.help());
}
