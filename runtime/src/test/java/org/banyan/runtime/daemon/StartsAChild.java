package org.banyan.runtime.daemon;

/** A program that starts {@code sh -c ARG} with this JVM's environment and waits for it. */
public final class StartsAChild {
    private StartsAChild() {}

    public static void main(String[] args) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", args[0]).inheritIO().start();
        System.exit(p.waitFor());
    }
}
