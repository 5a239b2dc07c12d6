package org.banyan.comm;

/**
 * The messages of a one-sided window ({@link Window}), sent on the window's own context with
 * their kind as the tag, and their records, in the host's byte order (ranks share an
 * architecture). ACK, GRANT, UNLOCK, POST and COMPLETE are empty.
 *
 * <pre>
 * PUT        offset:i64 data...                                  answered by ACK
 * ACC        offset:i64 type:i32 (Elem's code) op:i32 (an index of Window's accumulate ops) data...   answered by ACK
 * GET        offset:i64 length:i32 id:i32                        answered by GET_REPLY
 * GET_ACC    offset:i64 type:i32 op:i32 id:i32 data...           answered by GET_REPLY (the values before)
 * CAS        offset:i64 type:i32 id:i32 compare swap (one value each)   answered by GET_REPLY
 * GET_REPLY  id:i32 data...
 * LOCK       exclusive:i32 (0 or 1)                              answered by GRANT
 * UNLOCK                                                         the origin's lock is released
 * POST       (target to origin) the target's window is open to the origin's access epoch (MPI_Win_post)
 * COMPLETE   (origin to target) the origin's access epoch is over, its operations applied (MPI_Win_complete)
 * NACK       offset:i64 length:i64    answers a PUT or ACC that a dynamic window's target had no attached memory for
 * REFUSED    id:i32 offset:i64 length:i64   answers a GET, GET_ACC or CAS alike, in place of its GET_REPLY
 * </pre>
 *
 * A target answers PUT and ACC in the order they arrive, and messages from one rank arrive in
 * the order sent, so an origin's n-th ACK (or NACK) from a target is for its n-th PUT or ACC to it.
 */
final class WindowRecords {
    static final int PUT = 1, ACC = 2, GET = 3, GET_REPLY = 4, ACK = 5, LOCK = 6, GRANT = 7, UNLOCK = 8, GET_ACC = 9, CAS = 10,
            POST = 11, COMPLETE = 12, NACK = 13, REFUSED = 14;

    static final int OFFSET_AT = 0;
    static final int PUT_DATA = 8;
    static final int ACC_TYPE_AT = 8;
    static final int ACC_OP_AT = 12;
    static final int ACC_DATA = 16;
    static final int GET_LENGTH_AT = 8;
    static final int GET_ID_AT = 12;
    static final int GET_SIZE = 16;
    static final int REPLY_ID_AT = 0;
    static final int REPLY_DATA = 4;
    static final int LOCK_EXCLUSIVE_AT = 0;
    static final int LOCK_SIZE = 4;
    static final int GET_ACC_ID_AT = 16;
    static final int GET_ACC_DATA = 20;
    static final int CAS_TYPE_AT = 8;
    static final int CAS_ID_AT = 12;
    static final int CAS_DATA = 16;
    static final int NACK_OFFSET_AT = 0;
    static final int NACK_LENGTH_AT = 8;
    static final int NACK_SIZE = 16;
    static final int REFUSED_ID_AT = 0;
    static final int REFUSED_OFFSET_AT = 4;
    static final int REFUSED_LENGTH_AT = 12;
    static final int REFUSED_SIZE = 20;

    private WindowRecords() {}
}
