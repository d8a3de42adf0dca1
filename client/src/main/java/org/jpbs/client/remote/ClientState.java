package org.jpbs.client.remote;

/**
 * What a {@link PbsClient} keeps between runs and whom it may ask, as proxmox-backup-client does:
 * a ticket cache (a user logs in once and later runs reuse the ticket), a store of accepted
 * certificate fingerprints per server, and an {@link Interaction} for prompts.
 *
 * @param tickets      the ticket cache, or null for none
 * @param fingerprints the fingerprint store, or null for none
 * @param interaction  prompts ({@link Interaction#none()} for none)
 */
public record ClientState(TicketCache tickets, FingerprintStore fingerprints, Interaction interaction) {
    /** No cache, no store, no prompts. */
    public static ClientState none() {
        return new ClientState(null, null, Interaction.none());
    }
}
