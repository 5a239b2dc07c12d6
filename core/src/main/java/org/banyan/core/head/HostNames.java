package org.banyan.core.head;

import java.util.List;

/** How a report names many hosts: the first five, and how many more. */
final class HostNames {
    private HostNames() {}

    static String summarize(List<String> hosts) {
        if (hosts.size() <= 5) {
            return String.join(", ", hosts);
        }
        return String.join(", ", hosts.subList(0, 5)) + " and " + (hosts.size() - 5) + " more";
    }
}
