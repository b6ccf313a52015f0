package dev.argus.access;

import dev.argus.http.Permission;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;


/**
 * The roles a key (or a token) carries, and the permissions each holds: the one role table. The README's table
 * and the role-by-route tests are read from it.
 * <ul>
 *   <li>{@code admin}: everything, including keys and the audit log;</li>
 *   <li>{@code analyst}: read, search, chat, ask for and review decisions, ingest;</li>
 *   <li>{@code upstream}: a system integrating with Argus: read, search, chat, decide, ingest (no reviews);</li>
 *   <li>{@code reader}: read and search only.</li>
 * </ul>
 */
public enum Role {
  ADMIN("admin", EnumSet.allOf(Permission.class)),
  ANALYST("analyst", EnumSet.of(Permission.READ, Permission.SEARCH, Permission.CHAT, Permission.INGEST, Permission.DECIDE, Permission.REVIEW)),
  UPSTREAM("upstream", EnumSet.of(Permission.READ, Permission.SEARCH, Permission.CHAT, Permission.INGEST, Permission.DECIDE)),
  READER("reader", EnumSet.of(Permission.READ, Permission.SEARCH));

  private final String wireName;
  private final Set<Permission> permissions;

  Role(String wireName, EnumSet<Permission> permissions) {
    this.wireName = wireName;
    this.permissions = Set.copyOf(permissions);
  }

  public String wireName() {
    return wireName;
  }

  public Set<Permission> permissions() {
    return permissions;
  }

  public boolean may(Permission p) {
    return p == Permission.PUBLIC || permissions.contains(p);
  }

  /** The role of this name, or null. */
  public static Role parse(String name) {
    if (name == null) {
      return null;
    }
    String n = name.strip().toLowerCase(Locale.ROOT);
    for (Role r : values()) {
      if (r.wireName.equals(n)) {
        return r;
      }
    }
    return null;
  }

  public static String names() {
    return "admin, analyst, upstream, reader";
  }
}
