package org.banyan.pilot;

import java.io.Serializable;
import java.util.concurrent.Callable;

/** A function task with no argument: written to a worker JVM with Java serialization. */
@FunctionalInterface
public interface SerializableCallable<T> extends Callable<T>, Serializable {}
