package org.banyan.runtime.daemon;

/** A program for {@link WarmAgentTest}: prints the variable its argument names, as {@code System.getenv} sees it. */
public final class PrintsItsVariable {
    private PrintsItsVariable() {}

    public static void main(String[] args) {
        System.out.println("main " + args[0] + "=" + System.getenv(args[0]));
    }
}
