package org.banyan.cli.options;

/** Bad input: the message is the one line the user sees; the exit status is 2 and nothing runs. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message, null, false, false);
    }
}
