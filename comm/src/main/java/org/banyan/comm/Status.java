package org.banyan.comm;

/** What a completed receive got: the sender's rank in the communicator, the tag, the byte count. */
public record Status(int source, int tag, int bytes) {
    /** Elements of {@code elementBytes} bytes each in the message. */
    public int count(int elementBytes) {
        return bytes / elementBytes;
    }
}
