package org.jpbs.server.api;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.jpbs.core.api.BackupGroupRef;

/**
 * The backup groups a prune or verify job started through the API may touch on behalf of its
 * caller (PBS {@code ListAccessibleBackupGroups}, {@code docs/api.md#admindatastorestore}): either
 * every group ({@link #ALL}), or the groups the caller may see and act on, decided per
 * namespace by its privileges there and, without the "full" privilege, by the group's owner.
 * Built by {@link Access#jobScope}; immutable, thread-safe if its predicate is.
 */
public final class GroupScope {
    /** Every group (a caller with the full privilege on the top namespace of a verify). */
    public static final GroupScope ALL = new GroupScope(g -> true, null);

    private final Predicate<BackupGroupRef> filter;
    private final String limitedTo;

    /**
     * @param filter    true for a group the job may touch
     * @param limitedTo the caller, if groups it does not own may be left out (for the task log), or null
     */
    GroupScope(Predicate<BackupGroupRef> filter, String limitedTo) {
        this.filter = Objects.requireNonNull(filter, "filter");
        this.limitedTo = limitedTo;
    }

    /** True if the job may touch {@code group}. */
    public boolean includes(BackupGroupRef group) {
        return filter.test(group);
    }

    /** The caller, when the job is limited to the groups it owns somewhere (PBS logs "limiting to backups owned by ..."). */
    public Optional<String> limitedTo() {
        return Optional.ofNullable(limitedTo);
    }
}
