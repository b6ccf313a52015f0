package dev.argus.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Start-up check that the PostgreSQL extensions Argus needs exist in the database, or can be created there.
 * Runs over the JDBC connection Flyway uses (on a worker thread, before the migrations), so a missing
 * extension stops start-up with a message naming it instead of a migration stack trace.
 */
public final class PgExtensions {

  /** pgvector (HNSW vector index) and pg_trgm (trigram retrieval). */
  public static final List<String> REQUIRED = List.of("vector", "pg_trgm");

  private PgExtensions() {
  }

  /** A required extension is missing and cannot be created; retrying does not help. */
  public static final class MissingExtensionException extends RuntimeException {
    public MissingExtensionException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Creates each extension that is available but not yet created; fails naming the first one that is missing. */
  public static void ensure(Connection conn, List<String> names, String where) throws SQLException {
    for (String name : names) {
      String installed;
      boolean available;
      try (PreparedStatement st = conn.prepareStatement(
          "SELECT installed_version FROM pg_available_extensions WHERE name = ?")) {
        st.setString(1, name);
        try (ResultSet rs = st.executeQuery()) {
          available = rs.next();
          installed = available ? rs.getString(1) : null;
        }
      }
      if (!available) {
        throw new MissingExtensionException("PostgreSQL extension '" + name + "' (" + describe(name)
            + ") is not installed on the server " + where + "; install it on the server (on a local Debian/Ubuntu"
            + " machine scripts/setup-postgres does this) and start Argus again", null);
      }
      if (installed == null) {
        try (Statement st = conn.createStatement()) {
          st.execute("CREATE EXTENSION IF NOT EXISTS " + quoteIdent(name));
        } catch (SQLException e) {
          throw new MissingExtensionException("PostgreSQL extension '" + name + "' (" + describe(name) + ") is available on "
              + where + " but could not be created in the database: " + e.getMessage()
              + "; run CREATE EXTENSION " + name + " there as a superuser", e);
        }
      }
    }
  }

  private static String describe(String name) {
    return switch (name) {
      case "vector" -> "pgvector, for vector search";
      case "pg_trgm" -> "trigram retrieval";
      default -> "required by Argus";
    };
  }

  private static String quoteIdent(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
