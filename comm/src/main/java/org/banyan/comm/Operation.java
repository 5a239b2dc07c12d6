package org.banyan.comm;

/** A send or a receive owned by an {@link Engine}: done, or waiting for the engine's progress. */
abstract sealed class Operation implements Request permits Operation.Send, Operation.Receive, Operation.Null, Operation.Background,
        Operation.OneSided {
    final Engine engine;
    volatile boolean done;
    volatile RuntimeException failure;

    Operation(Engine engine) {
        this.engine = engine;
    }

    void complete() {
        done = true;
    }

    void fail(RuntimeException e) {
        failure = e;
        done = true;
    }

    @Override
    public Status await() {
        if (!done) {
            engine.progressUntil(this);
        }
        if (failure != null) {
            throw failure;
        }
        return status();
    }

    @Override
    public boolean test() {
        if (!done) {
            engine.progressOnce();
        }
        if (done && failure != null) {
            throw failure;
        }
        return done;
    }

    abstract Status status();

    @Override
    public boolean cancel() {
        return false;
    }

    @Override
    public boolean cancelled() {
        return false;
    }

    static final class Send extends Operation {
        Send(Engine engine) {
            super(engine);
        }

        @Override
        Status status() {
            return null;
        }
    }

    /** A posted receive: matched against arrivals by (context, source, tag), either possibly ANY. */
    static final class Receive extends Operation {
        final int context;
        final int source;
        final int tag;
        final java.lang.foreign.MemorySegment buffer;
        private Status status;

        Receive(Engine engine, int context, int source, int tag, java.lang.foreign.MemorySegment buffer) {
            super(engine);
            this.context = context;
            this.source = source;
            this.tag = tag;
            this.buffer = buffer;
        }

        boolean matches(Envelope e) {
            return e.context() == context && (source == Comm.ANY_SOURCE || source == e.source())
                    && (tag == Comm.ANY_TAG || tag == e.tag());
        }

        private volatile boolean cancelled;

        @Override
        public boolean cancel() {
            boolean[] taken = new boolean[1];
            engine.locked(() -> {
                if (!done && engine.matcher.unpost(this)) {
                    cancelled = true;
                    complete();
                    taken[0] = true;
                }
            });
            return taken[0];
        }

        @Override
        public boolean cancelled() {
            return cancelled;
        }

        /** For the receive of an announced message's bytes: the user's receive it completes, and as what. */
        private Receive forwardTo;
        private Envelope forwardAs;

        void forwardTo(Receive user, Envelope announced) {
            forwardTo = user;
            forwardAs = announced;
        }

        @Override
        void fail(RuntimeException e) {
            super.fail(e);
            if (forwardTo != null) { // the bytes of the user's receive will not come: neither will it
                forwardTo.fail(e);
            }
        }

        /** Run with the status once the bytes are in, before the receive is done (a datatype's unpacking). */
        java.util.function.Consumer<Status> then;

        void complete(Envelope e) {
            if (forwardTo != null) {
                complete();
                forwardTo.complete(forwardAs);
                return;
            }
            status = new Status(e.source(), e.tag(), (int) Math.min(e.length(), buffer.byteSize()));
            if (then != null) {
                then.accept(status);
            }
            if (e.length() > buffer.byteSize()) {
                fail(new TruncatedException(e.source(), e.tag(), e.length(), (int) buffer.byteSize()));
            } else {
                complete();
            }
        }

        @Override
        Status status() {
            return status;
        }
    }

    /** A non-blocking collective, done by the communicator's collective thread ({@link CollectiveThread}). */
    static final class Background extends Operation {
        Background(Engine engine) {
            super(engine);
        }

        @Override
        Status status() {
            return null;
        }
    }

    /**
     * A request-based one-sided operation (MPI_Rput, Rget...): done when its target answered it
     * ({@link Window}); {@code then}, when given, runs once it is done or failed (with the
     * engine's lock held, as the answer arrives): a part of an operation on derived datatypes
     * tells the whole.
     */
    static final class OneSided extends Operation {
        private final java.util.function.Consumer<RuntimeException> then;

        OneSided(Engine engine) {
            this(engine, null);
        }

        OneSided(Engine engine, java.util.function.Consumer<RuntimeException> then) {
            super(engine);
            this.then = then;
        }

        @Override
        void complete() {
            super.complete();
            if (then != null) {
                then.accept(null);
            }
        }

        @Override
        void fail(RuntimeException e) {
            super.fail(e);
            if (then != null) {
                then.accept(e);
            }
        }

        @Override
        Status status() {
            return null;
        }
    }

    /** A send to or a receive from {@link Comm#PROC_NULL}: done at once, nothing moved. */
    static final class Null extends Operation {
        private final Status status;

        Null(Engine engine, Status status) {
            super(engine);
            this.status = status;
            complete();
        }

        @Override
        Status status() {
            return status;
        }
    }
}
