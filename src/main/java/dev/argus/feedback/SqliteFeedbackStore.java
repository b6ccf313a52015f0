package dev.argus.feedback;

import dev.argus.store.Database;

/** Feedback in the embedded SQLite file ({@code db/migration/sqlite/V11_5__feedback.sql}); {@code ?} placeholders. */
public final class SqliteFeedbackStore extends SqlFeedbackStore {

  public SqliteFeedbackStore(Database db) {
    super(db);
  }

  @Override
  String sql(String withQuestionMarks) {
    return withQuestionMarks;
  }
}
