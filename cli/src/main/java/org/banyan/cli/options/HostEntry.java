package org.banyan.cli.options;

/**
 * A host as the user named it, with its slots and where it was named (for messages).
 *
 * @param slots  slots given, or 0 when not given (then the caller decides)
 * @param origin {@code --host} or {@code FILE:LINE}
 */
public record HostEntry(String name, int slots, String origin) {}
