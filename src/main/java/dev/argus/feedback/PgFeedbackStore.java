package dev.argus.feedback;

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
    StringBuilder out = new StringBuilder(withQuestionMarks.length() + 16);
    int n = 0;
    for (int i = 0; i < withQuestionMarks.length(); i++) {
      char c = withQuestionMarks.charAt(i);
      if (c == '?') {
        out.append('$').append(++n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
