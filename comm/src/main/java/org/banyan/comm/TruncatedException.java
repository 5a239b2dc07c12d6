package org.banyan.comm;

/** A message was longer than the receive buffer (MPI_ERR_TRUNCATE); the buffer holds its first bytes. */
public final class TruncatedException extends CommException {
    private final int messageBytes;

    public TruncatedException(int source, int tag, int messageBytes, int bufferBytes) {
        super("message from rank " + source + " (tag " + tag + ") has " + messageBytes
                + " bytes, the receive buffer only " + bufferBytes);
        this.messageBytes = messageBytes;
    }

    /** How long the message was. */
    public int messageBytes() {
        return messageBytes;
    }
}
