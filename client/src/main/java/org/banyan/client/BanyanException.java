package org.banyan.client;

/** Something Banyan refused or could not do for this rank; the message says what. */
public class BanyanException extends RuntimeException {
    public BanyanException(String message) {
        super(message);
    }

    public BanyanException(String message, Throwable cause) {
        super(message, cause);
    }
}
