package org.banyan.comm;

/** A communication call could not do what it was asked: bad arguments, a lost peer, a closed communicator. */
public class CommException extends RuntimeException {
    public CommException(String message) {
        super(message);
    }

    public CommException(String message, Throwable cause) {
        super(message, cause);
    }
}
