package org.banyan.runtime.warm;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent of a JVM a daemon keeps waiting for a DVM job's expansion (the warm pool,
 * {@code org.banyan.core.daemon.WarmProgram}): before the program's {@code main}, it loads the
 * main class, then blocks on stdin until its daemon makes it a rank. The daemon writes the rank's
 * variables and closes the pipe; the agent sets them in the C environment (before anything in
 * this JVM has read it, so {@code System.getenv} sees them as if the JVM had started with them)
 * and returns, and {@code main} runs as in a JVM started for the rank. The end of stdin before
 * that (the pool dropped, the daemon gone) ends the JVM at once, without running {@code main}.
 *
 * <p>The daemon writes this class alone into a jar of its own (it must load without the rest of
 * Banyan). The activation on stdin, all integers big-endian:
 *
 * <pre>
 * activation := magic:u32 (0x42574152, "BWAR") n:u32 (name:string value:string){n}
 * string     := length:u32 utf8[length]
 * </pre>
 */
public final class WarmStart {
    static final int MAGIC = 0x42574152;
    /** Where its stdin's end before an activation leaves the JVM: it never ran the program. */
    static final int NOT_STARTED = 0;
    /** Classes of the Banyan client a Java rank loads while it joins, loaded ahead where present. */
    private static final String[] AHEAD = {"org.banyan.client.Banyan", "org.banyan.comm.Comm", "org.banyan.comm.World",
            "org.banyan.comm.Engine", "org.banyan.comm.Dmr", "org.banyan.comm.Matcher", "org.banyan.comm.ShmTransport",
            "org.banyan.comm.TcpTransport", "org.banyan.comm.BlockRedistribution"};

    private WarmStart() {}

    public static void premain(String options, Instrumentation inst) {
        loadAhead();
        MethodHandle setenv;
        try {
            setenv = setenvHandle();
            warmUp(setenv);
        } catch (Throwable t) {
            Runtime.getRuntime().halt(NOT_STARTED); // its rank starts as a JVM of its own instead
            return;
        }
        if (environmentRead(inst)) {
            // something read the environment already: the rank's variables would not show
            Runtime.getRuntime().halt(NOT_STARTED);
            return;
        }
        Map<String, String> env;
        try {
            env = read(new FileInputStream(FileDescriptor.in)); // not closed: fd 0 stays the program's stdin
        } catch (IOException e) {
            Runtime.getRuntime().halt(NOT_STARTED);
            return;
        }
        try {
            setenv(setenv, env);
        } catch (Throwable t) {
            System.err.println("banyan: a waiting JVM could not take its rank's variables: " + t);
            Runtime.getRuntime().halt(127);
        }
    }

    /**
     * What a rank's start pays for in a fresh JVM and does not depend on the rank, done while the
     * JVM waits: the foreign linker and the call that sets the variables (85 ms of a warm rank's
     * start here when done after its activation), and the JDK's networking (the host's name and
     * addresses, sockets and a selector, which a Banyan rank's start opens). Nothing here reads
     * the environment; {@link #environmentRead} checks that.
     */
    private static void warmUp(MethodHandle setenv) throws Throwable {
        try (Arena arena = Arena.ofConfined()) { // BANYAN_RANK: every activation sets it; 0: no overwrite
            int rc = (int) setenv.invokeExact(arena.allocateFrom("BANYAN_RANK"), arena.allocateFrom(""), 0);
        }
        try {
            java.net.InetAddress.getLocalHost();
        } catch (java.net.UnknownHostException e) {
            // the rank resolves its own way
        }
        java.nio.channels.Selector.open().close();
        java.nio.channels.ServerSocketChannel.open().close();
        java.nio.channels.SocketChannel.open().close();
    }

    /** Whether the JDK has taken its copy of the C environment ({@code System.getenv} was called). */
    private static boolean environmentRead(Instrumentation inst) {
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getName().equals("java.lang.ProcessEnvironment")) {
                return true;
            }
        }
        return false;
    }

    /** The program's main class and Banyan's, loaded (not initialized) while nothing waits for them. */
    private static void loadAhead() {
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        String command = System.getProperty("sun.java.command", "");
        String main = command.split(" ", 2)[0];
        if (!main.isEmpty() && !main.endsWith(".jar")) {
            tryLoad(main, loader);
        }
        for (String name : AHEAD) {
            tryLoad(name, loader);
        }
    }

    private static void tryLoad(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
        } catch (Throwable t) {
            // not on its class path: main loads what it needs itself
        }
    }

    /** The activation of a rank with variables {@code env}. */
    public static byte[] activation(Map<String, String> env) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(env.size());
            for (Map.Entry<String, String> e : env.entrySet()) {
                string(out, e.getKey());
                string(out, e.getValue());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e); // not from memory
        }
        return bytes.toByteArray();
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** Reads one activation; an IOException when the stream ends first or is not one. */
    static Map<String, String> read(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        if (in.readInt() != MAGIC) {
            throw new IOException("not an activation");
        }
        int n = in.readInt();
        if (n < 0 || n > 100_000) {
            throw new IOException("not an activation");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            env.put(string(in), string(in));
        }
        return env;
    }

    private static String string(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 16 << 20) {
            throw new IOException("not an activation");
        }
        byte[] b = new byte[n];
        in.readFully(b); // EOFException when the stream ends first
        return new String(b, StandardCharsets.UTF_8);
    }

    private static MethodHandle setenvHandle() {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find("setenv").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    }

    private static void setenv(MethodHandle setenv, Map<String, String> env) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            for (Map.Entry<String, String> e : env.entrySet()) {
                int rc = (int) setenv.invokeExact(arena.allocateFrom(e.getKey()), arena.allocateFrom(e.getValue()), 1);
                if (rc != 0) {
                    throw new IOException("setenv " + e.getKey() + " failed");
                }
            }
        }
    }
}
