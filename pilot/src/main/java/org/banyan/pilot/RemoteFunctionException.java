package org.banyan.pilot;

/**
 * What a function task threw in its worker JVM: the original's class name and message, with its
 * stack trace. The original itself does not travel (its class may not be serializable).
 */
public final class RemoteFunctionException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String remoteClass;

    public RemoteFunctionException(String remoteClass, String message, StackTraceElement[] stack) {
        super(remoteClass + (message == null ? "" : ": " + message));
        this.remoteClass = remoteClass;
        setStackTrace(stack);
    }

    /** The class of what the function threw, e.g. {@code java.lang.ArithmeticException}. */
    public String remoteClass() {
        return remoteClass;
    }

    /** Stands for {@code t} on the wire. */
    public static RemoteFunctionException of(Throwable t) {
        return new RemoteFunctionException(t.getClass().getName(), t.getMessage(), t.getStackTrace());
    }
}
