package org.banyan.topo;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * Reads hwloc's XML ({@code lstopo --of xml}, formats 1.x and 2.x) into a {@link Topology}:
 * the tree of objects that hold processing units (machine, packages or v1 sockets, groups, dies,
 * v1 NUMA nodes, caches, cores, PUs), without I/O objects and without v2's NUMA nodes, which hang
 * beside the CPU tree as memory children. Leaves keep their PU's {@code os_index}.
 *
 * <p>Real machines are not all balanced: hybrid processors (a performance core with two
 * hardware threads beside efficiency cores with one, in clusters of four under one L2), PUs that
 * are offline (absent from the XML) or not in the root's {@code allowed_cpuset} (a cgroup, a
 * Slurm step), groups of unequal size or depth. The tree is made regular as hwloc's levels
 * would be: an object whose subtrees are not all as deep gets pass-through objects above its
 * shallower children (so packages meet packages), each level takes the largest arity found on
 * it, and what an object lacks of it is padded with {@link Topology#HOLE holes}; a PU that may not
 * be used is a hole too.
 */
public final class HwlocXml {
    private static final Set<String> CPU_SIDE = Set.of("Machine", "Package", "Socket", "Group", "Die", "NUMANode", "Cache",
            "L1Cache", "L2Cache", "L3Cache", "L4Cache", "L5Cache", "L1iCache", "L2iCache", "L3iCache", "Core", "PU");
    /** Padding beyond this many leaves is refused: no real machine needs it, and the placement would be slow. */
    static final int MAX_LEAVES = 1 << 22;

    private HwlocXml() {}

    /** An object of the CPU side: its type, its children, and for a PU its OS index ({@link Topology#HOLE}: may not be used). */
    private record Obj(String type, List<Obj> kids, int os) {
        int height() {
            int h = 0;
            for (Obj k : kids) {
                h = Math.max(h, k.height() + 1);
            }
            return h;
        }
    }

    public static Topology parse(String xml) {
        Element root = document(xml);
        List<Element> top = cpuChildren(root);
        if (top.size() != 1) {
            throw new IllegalArgumentException("hwloc XML: expected one Machine object, found " + top.size());
        }
        Element machine = top.getFirst();
        java.util.BitSet allowed = cpuset(machine.getAttribute("allowed_cpuset"));
        java.util.BitSet online = cpuset(machine.getAttribute("online_cpuset")); // hwloc 1.x
        Obj tree = read(machine, allowed, online);
        if (tree == null) {
            throw new IllegalArgumentException("hwloc XML: the machine has no PU");
        }
        tree = evened(tree);
        List<Topology.Level> levels = new ArrayList<>();
        List<Obj> current = List.of(tree);
        long leaves = 1;
        while (!current.getFirst().kids().isEmpty()) {
            int arity = 0;
            String name = null;
            List<Obj> next = new ArrayList<>();
            for (Obj o : current) {
                arity = Math.max(arity, o.kids().size());
                for (Obj k : o.kids()) {
                    name = name != null || k.type().equals(PASS) ? name : k.type();
                    next.add(k);
                }
            }
            leaves *= arity;
            if (leaves > MAX_LEAVES) {
                throw new IllegalArgumentException("hwloc XML: too irregular a machine (more than " + MAX_LEAVES
                        + " places once its levels are padded)");
            }
            levels.add(new Topology.Level(name != null ? name : "Group", arity, 0));
            current = next;
        }
        int[] os = new int[(int) leaves];
        int[] at = {0};
        lay(tree, 0, levels, os, at);
        if (levels.isEmpty()) { // a machine of one PU
            levels.add(new Topology.Level("PU", 1, 0));
        }
        return new Topology(levels, os);
    }

    /** The {@code <topology>} element of hwloc's XML. */
    static Element document(String xml) {
        Element root;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // hwloc2.dtd is not here
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
            DocumentBuilder b = f.newDocumentBuilder();
            root = b.parse(new InputSource(new StringReader(xml))).getDocumentElement();
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalArgumentException("not hwloc XML: " + e.getMessage(), e);
        }
        if (!root.getTagName().equals("topology")) {
            throw new IllegalArgumentException("not hwloc XML: the root element is <" + root.getTagName() + ">, not <topology>");
        }
        return root;
    }

    /**
     * The machine's CPU kinds ({@code <cpukind>} elements, hwloc 2.4 and later, with their
     * {@code forced_efficiency} and {@code info}s), ranked as {@link CpuKinds} says;
     * {@link CpuKinds#NONE} for XML without them or with one kind.
     */
    public static CpuKinds kinds(String xml) {
        List<CpuKinds.Kind> kinds = new ArrayList<>();
        for (Node n = document(xml).getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e) || !e.getTagName().equals("cpukind")) {
                continue;
            }
            java.util.BitSet cpus = cpuset(e.getAttribute("cpuset"));
            if (cpus == null || cpus.isEmpty()) {
                continue;
            }
            java.util.Map<String, String> info = new java.util.HashMap<>();
            for (Node i = e.getFirstChild(); i != null; i = i.getNextSibling()) {
                if (i instanceof Element ie && ie.getTagName().equals("info")) {
                    info.put(ie.getAttribute("name"), ie.getAttribute("value"));
                }
            }
            kinds.add(new CpuKinds.Kind(cpus.stream().toArray(), decimal(e.getAttribute("forced_efficiency")),
                    info.get("CoreType"), decimal(info.get("LinuxCapacity")), decimal(info.get("FrequencyBaseMHz")),
                    decimal(info.get("FrequencyMaxMHz"))));
        }
        return CpuKinds.ranked(kinds);
    }

    /** A number of the XML, NaN when absent or not a number. */
    private static double decimal(String text) {
        if (text == null || text.isBlank()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The type of the objects put above a shallower child so that its subtree is as deep as its siblings'. */
    private static final String PASS = "pass-through";
    /** A PU the XML gives no {@code os_index}. */
    private static final int NO_INDEX = -2;

    /** The object, without the subtrees that hold no PU; null when it holds none. */
    private static Obj read(Element e, java.util.BitSet allowed, java.util.BitSet online) {
        String type = typeOf(e);
        if (type.equals("PU")) {
            String idx = e.getAttribute("os_index");
            int os = idx.isEmpty() ? NO_INDEX : Integer.parseInt(idx.strip());
            boolean usable = os < 0 || (allowed == null || allowed.get(os)) && (online == null || online.get(os));
            return new Obj(type, List.of(), !usable ? Topology.HOLE : os);
        }
        List<Obj> kids = new ArrayList<>();
        for (Element k : cpuChildren(e)) {
            Obj o = read(k, allowed, online);
            if (o != null) {
                kids.add(o);
            }
        }
        return kids.isEmpty() ? null : new Obj(type, kids, 0);
    }

    /** The same tree with every leaf at the same depth: shallower children get pass-through objects above them. */
    private static Obj evened(Obj o) {
        if (o.kids().isEmpty()) {
            return o;
        }
        int h = o.height() - 1;
        List<Obj> kids = new ArrayList<>();
        for (Obj k : o.kids()) {
            Obj even = evened(k);
            for (int d = k.height(); d < h; d++) {
                even = new Obj(PASS, List.of(even), 0);
            }
            kids.add(even);
        }
        return new Obj(o.type(), kids, o.os());
    }

    /** Writes the leaves under {@code o} (at depth {@code d}) from {@code at[0]} on: its PUs, holes for what it lacks. */
    private static void lay(Obj o, int d, List<Topology.Level> levels, int[] os, int[] at) {
        if (d == levels.size()) {
            int leaf = at[0]++;
            os[leaf] = o.os() == NO_INDEX ? leaf : o.os(); // a PU without os_index: its own number
            return;
        }
        for (Obj k : o.kids()) {
            lay(k, d + 1, levels, os, at);
        }
        long missing = (long) (levels.get(d).arity() - o.kids().size());
        for (int i = d + 1; i < levels.size(); i++) {
            missing *= levels.get(i).arity();
        }
        for (long i = 0; i < missing; i++) {
            os[at[0]++] = Topology.HOLE;
        }
    }

    /**
     * An hwloc bitmap ({@code 0x0000ffff,0xffffffff}: 32-bit words, the most significant first;
     * a leading {@code 0xf...f} word means every higher bit too); null when absent.
     */
    static java.util.BitSet cpuset(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String[] words = text.strip().split(",");
        java.util.BitSet set = new java.util.BitSet();
        int bit = 0;
        for (int w = words.length - 1; w >= 0; w--, bit += 32) {
            String word = words[w].strip();
            word = word.startsWith("0x") || word.startsWith("0X") ? word.substring(2) : word;
            if (word.isEmpty()) { // ",,," : words of zeros
                continue;
            }
            if (word.equals("f...f")) { // infinite: hwloc's bitmaps never name PUs past 2^16
                set.set(bit, bit + 65_536);
                continue;
            }
            long v;
            try {
                v = Long.parseLong(word, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("hwloc XML: a cpuset that is not hexadecimal words: " + text);
            }
            for (int b = 0; b < 32; b++) {
                if ((v >>> b & 1) != 0) {
                    set.set(bit + b);
                }
            }
        }
        return set;
    }

    /** "L2Cache", or "L2Cache" built from a v1 Cache's depth attribute. */
    private static String typeOf(Element e) {
        String t = e.getAttribute("type");
        if (t.equals("Cache")) {
            return "L" + e.getAttribute("depth") + "Cache";
        }
        return t.equals("Socket") ? "Package" : t;
    }

    private static List<Element> cpuChildren(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("object") && CPU_SIDE.contains(e.getAttribute("type"))) {
                // v2 NUMA nodes are memory children beside the CPU tree; v1's are in it, with children
                if (e.getAttribute("type").equals("NUMANode") && cpuChildren(e).isEmpty()) {
                    continue;
                }
                out.add(e);
            }
        }
        return out;
    }
}
