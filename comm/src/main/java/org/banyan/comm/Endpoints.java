package org.banyan.comm;

/**
 * How ranks learn each other's addresses: each publishes its own before the world is built, and
 * looks a peer's up on first contact (Banyan's key exchange, lazily fetched; a map in tests).
 */
interface Endpoints {
    void publish(String key, String value);

    /** Makes every rank's published values visible to every rank (a fence; collective). */
    void exchange();

    String lookup(int rank, String key);

    /** Host identity of a rank: ranks with equal values share memory. */
    String host(int rank);

    /** The job's secret, with which TCP connections between its ranks prove they belong; null: none to prove. */
    default byte[] secret() {
        return null;
    }
}
