package org.banyan.client;

/** The program was not started by {@code banyan run}: there is no daemon to talk to. */
public final class NotUnderBanyanException extends BanyanException {
    public NotUnderBanyanException(String message) {
        super(message);
    }
}
