package org.banyan.sim;

/**
 * What a {@link ModexWorkload} measured in a {@link LaunchSimulation}. Bytes count fence and
 * key-fetch frames, sent and received, at each vertex.
 *
 * @param fenceMicros   the last rank entering the fence to the last one leaving it: the
 *                      fence's own cost, without the launch's skew
 * @param modexMicros   the last rank entering the fence to the last rank holding every value
 *                      it asked for
 * @param getsFailed    gets answered "not found" (0 when the protocol is right)
 * @param bytesPerDaemonMax the most fence and fetch bytes at one daemon
 * @param bytesPerDaemonMean their mean over daemons
 * @param bytesAtHead   fence and fetch bytes at the head (fetches it relays included)
 */
public record ModexResult(long fenceMicros, long modexMicros, long getsDone, long getsFailed, long bytesPerDaemonMax,
                          double bytesPerDaemonMean, long bytesAtHead) {}
