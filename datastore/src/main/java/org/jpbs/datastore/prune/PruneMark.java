package org.jpbs.datastore.prune;

/** What prune does with a snapshot ({@code docs/gc.md#prune}), as PBS names it. */
public enum PruneMark {
    /** Kept by a keep rule (or because no rule is set). */
    KEEP("keep"),
    /** The newest snapshot is unfinished (a backup in progress): kept. */
    KEEP_PARTIAL("keep-partial"),
    /** Protected: never removed, does not use a slot. */
    PROTECTED("protected"),
    /** Removed. */
    REMOVE("remove");

    private final String text;

    PruneMark(String text) {
        this.text = text;
    }

    /** PBS's text: {@code keep}, {@code keep-partial}, {@code protected}, {@code remove}. */
    public String text() {
        return text;
    }

    /** True unless {@link #REMOVE}. */
    public boolean keeps() {
        return this != REMOVE;
    }

    @Override
    public String toString() {
        return text;
    }
}
