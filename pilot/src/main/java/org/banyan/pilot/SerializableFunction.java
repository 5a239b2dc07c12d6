package org.banyan.pilot;

import java.io.Serializable;
import java.util.function.Function;

/**
 * A function task applied to many arguments ({@link FunctionPool#map}): the function travels
 * once per batch, each argument on its own.
 */
@FunctionalInterface
public interface SerializableFunction<A, R> extends Function<A, R>, Serializable {}
