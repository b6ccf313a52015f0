package dev.argus.store;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import org.junit.jupiter.api.Test;

import java.net.SocketException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which failures count as the database being out of reach (answered 503) and which as a bad statement or a bug
 * (answered 500). The SQL client's "Connection is not active now" once escaped as a 500 from
 * {@code PgConnectionLossTest} when a backend was terminated between two commands of one search.
 */
class ConnectionLossTest {

  @Test
  void connectionFailuresAnywhereInTheCauseChain() {
    assertTrue(ConnectionLoss.is(ClosedConnectionException.INSTANCE));
    assertTrue(ConnectionLoss.is(new IllegalStateException("search failed", new SocketException("Connection reset"))));
    assertTrue(ConnectionLoss.is(new PgException("terminating connection due to administrator command", "FATAL",
        "57P01", null)));
    assertTrue(ConnectionLoss.is(new PgException("connection failure", "FATAL", "08006", null)));
    assertTrue(ConnectionLoss.is(new VertxException(ConnectionLoss.INACTIVE_CONNECTION + ", current status: CLOSED",
        true)));
    assertTrue(ConnectionLoss.is(new IllegalStateException("wrapped",
        new VertxException("Connection is not active now, current status: CLOSED"))));
  }

  @Test
  void otherFailuresAreNot() {
    assertFalse(ConnectionLoss.is(new PgException("syntax error at or near \"::\"", "ERROR", "42601", null)));
    assertFalse(ConnectionLoss.is(new VertxException("Connection pool reached max wait queue size")));
    assertFalse(ConnectionLoss.is(new VertxException((String) null)));
    assertFalse(ConnectionLoss.is(new IllegalArgumentException("bad input")));
    assertFalse(ConnectionLoss.is(null));
  }
}
