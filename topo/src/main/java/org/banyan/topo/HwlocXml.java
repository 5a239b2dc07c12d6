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
 * beside the CPU tree as memory children. The tree must be balanced (every object of a level
 * with as many children); leaves keep their PU's {@code os_index}.
 */
public final class HwlocXml {
    private static final Set<String> CPU_SIDE = Set.of("Machine", "Package", "Socket", "Group", "Die", "NUMANode", "Cache",
            "L1Cache", "L2Cache", "L3Cache", "L4Cache", "L5Cache", "L1iCache", "L2iCache", "L3iCache", "Core", "PU");

    private HwlocXml() {}

    public static Topology parse(String xml) {
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
        List<Element> top = cpuChildren(root);
        if (top.size() != 1) {
            throw new IllegalArgumentException("hwloc XML: expected one Machine object, found " + top.size());
        }
        List<Topology.Level> levels = new ArrayList<>();
        List<Element> current = top;
        while (true) {
            List<Element> next = new ArrayList<>();
            int arity = -1;
            String name = null;
            for (Element e : current) {
                List<Element> kids = cpuChildren(e);
                if (arity < 0) {
                    arity = kids.size();
                    name = kids.isEmpty() ? null : typeOf(kids.getFirst());
                } else if (kids.size() != arity) {
                    throw new IllegalArgumentException("hwloc XML: an unbalanced topology: " + typeOf(e) + " objects have "
                            + arity + " and " + kids.size() + " children");
                }
                next.addAll(kids);
            }
            if (arity == 0) {
                break;
            }
            levels.add(new Topology.Level(name, arity, 0));
            current = next;
        }
        int[] os = new int[current.size()];
        for (int i = 0; i < os.length; i++) {
            String idx = current.get(i).getAttribute("os_index");
            os[i] = idx.isEmpty() ? i : Integer.parseInt(idx);
        }
        return new Topology(levels, os);
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
