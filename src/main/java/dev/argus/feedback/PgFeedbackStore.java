package dev.argus.feedback;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;

/**
 * Feedback in PostgreSQL ({@code db/migration/postgres/V11_5__feedback.sql}); the shared statements' {@code ?} become
 * {@code $1, $2, ...} (none of them holds a {@code ?} in a literal).
 */
public final class PgFeedbackStore extends SqlFeedbackStore {

  public PgFeedbackStore(Database db) {
    super(db);
  }

  @Override
  String sql(String withQuestionMarks) {
    return SqlParams.numbered(withQuestionMarks);
  }
}
