package org.banyan.cli.run;

import org.banyan.cli.options.UsageException;

/** Timeouts as {@code --timeout} and {@code MPIEXEC_TIMEOUT} give them, in milliseconds. */
final class Timeouts {
    private Timeouts() {}

    /** Seconds as people write them (2, 0.5, 90.25), at least a millisecond. */
    static long seconds(String text) throws UsageException {
        if (text.matches("\\d{1,9}(\\.\\d*)?|\\.\\d+")) {
            double s = Double.parseDouble(text);
            if (s >= 0.001) {
                return Math.round(s * 1000);
            }
        }
        throw new UsageException("--timeout must be a positive number of seconds (at least 0.001, e.g. 30 or 2.5), got '" + text + "'");
    }

    /**
     * {@code MPIEXEC_TIMEOUT}, seconds: the timeout of a run without {@code --timeout}, as both
     * mpiexec.hydra and mpirun take it (test suites set it once for every launch); unset, empty
     * or 0 for none, as there.
     */
    static long fromEnvironment(String value) throws UsageException {
        if (value == null || value.isBlank() || value.strip().equals("0")) {
            return 0;
        }
        try {
            return seconds(value.strip());
        } catch (UsageException e) {
            throw new UsageException("MPIEXEC_TIMEOUT must be a number of seconds, got '" + value + "'");
        }
    }
}
