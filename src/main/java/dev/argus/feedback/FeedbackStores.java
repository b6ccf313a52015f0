package dev.argus.feedback;

import dev.argus.store.Database;

/** Creates the {@link FeedbackStore} for the database's dialect. */
public final class FeedbackStores {

  private FeedbackStores() {
  }

  public static FeedbackStore create(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgFeedbackStore(db) : new SqliteFeedbackStore(db);
  }
}
