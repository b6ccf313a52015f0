package dev.argus.graph;

import dev.argus.store.SqlParams;
import dev.argus.graph.GraphStore.Group;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Rings and communities with stable ids ({@code graph_groups}, {@code graph_group_members}) of a {@link SqlGraphStore}. */
final class SqlGraphGroups {

  private final SqlGraphStore store;

  SqlGraphGroups(SqlGraphStore store) {
    this.store = store;
  }

  Future<List<Group>> touching(String kind, Collection<String> members) {
    Map<String, Group> out = new LinkedHashMap<>();
    return Chunks.forEach(List.copyOf(new LinkedHashSet<>(members)), part -> {
      SqlParams p = store.params();
      String k = p.add(kind);
      return store.db.pool().preparedQuery("SELECT * FROM graph_groups WHERE kind = " + k + " AND id IN (SELECT group_id "
          + "FROM graph_group_members WHERE " + store.in("member_id", p, part) + ") ORDER BY id").execute(p.tuple).map(rows -> {
            rows.forEach(r -> out.put(r.getString("id"), group(r)));
            return null;
          });
    }).map(v -> List.copyOf(out.values()));
  }

  Future<Optional<Group>> get(String id) {
    SqlParams p = store.params();
    return store.db.pool().preparedQuery("SELECT * FROM graph_groups WHERE id = " + p.add(id)).execute(p.tuple)
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(group(rows.iterator().next())));
  }

  private Group group(Row r) {
    Object m = r.getValue("members");
    JsonArray members = m instanceof JsonArray a ? a : new JsonArray(String.valueOf(m));
    return new Group(r.getString("id"), r.getString("kind"), members.stream().map(String::valueOf).toList(),
        r.getDouble("risk"), r.getLong("first_seen"), r.getLong("last_seen"), r.getLong("created_at"),
        r.getLong("updated_at"));
  }

  Future<Void> save(Group g) {
    return store.write(() -> store.db.inTransaction(conn -> {
      SqlParams d = store.params();
      SqlParams m = store.params();
      return conn.preparedQuery("DELETE FROM graph_groups WHERE id = " + d.add(g.id())).execute(d.tuple)
          .compose(v -> conn.preparedQuery("DELETE FROM graph_group_members WHERE group_id = " + m.add(g.id()))
              .execute(m.tuple))
          .compose(v -> store.insertMany(conn, new SqlGraphStore.Insert("graph_groups", List.of("id", "kind", "members", "size", "risk",
                  "first_seen", "last_seen", "created_at", "updated_at"), List.of(SqlGraphStore.Type.TEXT, SqlGraphStore.Type.TEXT, SqlGraphStore.Type.JSON,
                  SqlGraphStore.Type.BIGINT, SqlGraphStore.Type.DOUBLE, SqlGraphStore.Type.BIGINT, SqlGraphStore.Type.BIGINT, SqlGraphStore.Type.BIGINT, SqlGraphStore.Type.BIGINT), ""),
              List.<Object[]>of(new Object[] {g.id(), g.kind(), new JsonArray(List.copyOf(g.members())).encode(),
                  (long) g.members().size(), g.risk(), g.firstSeen(), g.lastSeen(), g.createdAt(), g.updatedAt()})))
          .compose(v -> store.insertMany(conn, new SqlGraphStore.Insert("graph_group_members", List.of("group_id", "member_id"),
              List.of(SqlGraphStore.Type.TEXT, SqlGraphStore.Type.TEXT), "ON CONFLICT DO NOTHING"), g.members().stream()
              .map(member -> new Object[] {g.id(), member}).toList()));
    }));
  }
}
