package org.banyan.client;

/**
 * The process table's field offsets as this library reads them, by the names Banyan's writer
 * ({@code org.banyan.core.job.ProcessTable}) gives them: the two share no code (the library
 * has no dependency), so a test holds each name here to its value there.
 */
public interface ProcessTableLayout {
    int AT_MAGIC = 0;
    int AT_VERSION = 4;
    int AT_SIZE = 12;
    int AT_NODES = 16;
    int AT_FILLED = 20;
    int AT_NAMES = 24;
    int REC_RANK = 0;
    int REC_NODE = 4;
    int REC_LOCAL_RANK = 8;
    int REC_LOCAL_SIZE = 12;
    int REC_APPNUM = 16;
    int REC_BINDING = 20;
    int REC_BIND_COUNT = 24;
}
