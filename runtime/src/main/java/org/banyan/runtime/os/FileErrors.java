package org.banyan.runtime.os;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** What went wrong with a file, in the words the C library would use. */
public final class FileErrors {
    private FileErrors() {
    }

    /**
     * Why {@code e} happened, without its path: a {@link FileSystemException}'s message is often
     * the path alone, with the reason only in its type.
     */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return switch (e) {
            case NoSuchFileException x -> "No such file or directory";
            case AccessDeniedException x -> "Permission denied";
            case FileAlreadyExistsException x -> "File exists";
            case NotDirectoryException x -> "Not a directory";
            case FileSystemException x -> x.getClass().getSimpleName();
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
    }

    /** Whether {@code e} says the reader of a pipe or socket has gone (EPIPE), which commands end on quietly. */
    public static boolean brokenPipe(IOException e) {
        return e.getMessage() != null && e.getMessage().contains("Broken pipe");
    }
}
