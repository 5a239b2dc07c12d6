package org.banyan.cli.options;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;

/** The names and addresses under which this machine can be named in a host list. */
public final class LocalHost {
    private LocalHost() {}

    /** The kernel's host name, read without a DNS look-up. */
    public static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** Whether {@code name} designates this machine. Cheap names first; interfaces only if needed. */
    public static boolean isLocal(String name) {
        String n = name.toLowerCase();
        if (n.equals("localhost") || n.startsWith("127.") || n.equals("::1") || n.equals(hostname().toLowerCase())
                || n.equals("localhost.localdomain")) {
            return true;
        }
        String shortName = hostname().toLowerCase();
        int dot = shortName.indexOf('.');
        if (dot > 0 && n.equals(shortName.substring(0, dot))) {
            return true;
        }
        return interfaceAddresses().contains(n);
    }

    /**
     * This machine's slots when no host is named: its cores, as Open MPI's mpirun counts them, or
     * with {@code hwThreads} ({@code --use-hwthread-cpus}) its hardware threads; of the CPUs this
     * process may use, and never more than the JVM's count (which a cgroup's CPU quota lowers).
     */
    public static int slots(boolean hwThreads) {
        int cpus = Runtime.getRuntime().availableProcessors();
        if (hwThreads || !org.banyan.topo.SysfsTopology.smtActive()) { // without SMT every CPU the JVM counts is a core
            return cpus;
        }
        int cores = org.banyan.topo.SysfsTopology.localCores();
        return cores > 0 ? Math.min(cores, cpus) : cpus;
    }

    /** Whether the name resolves to an address (/etc/hosts, DNS). */
    public static boolean resolves(String name) {
        try {
            InetAddress.getByName(name);
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    private static Set<String> interfaceAddresses() {
        Set<String> out = new HashSet<>();
        try {
            Enumeration<NetworkInterface> ifs = NetworkInterface.getNetworkInterfaces();
            while (ifs != null && ifs.hasMoreElements()) {
                Enumeration<InetAddress> addrs = ifs.nextElement().getInetAddresses();
                while (addrs.hasMoreElements()) {
                    String a = addrs.nextElement().getHostAddress();
                    int pct = a.indexOf('%');
                    out.add((pct >= 0 ? a.substring(0, pct) : a).toLowerCase());
                }
            }
        } catch (SocketException e) {
            // no interface list: only the cheap names count
        }
        return out;
    }
}
