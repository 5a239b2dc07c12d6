package org.banyan.pmix;

/** PMIx cannot be served on this host: libpmix is missing, or its server would not start. */
public final class PmixUnavailableException extends RuntimeException {
    public PmixUnavailableException(String message) {
        super(message);
    }
}
