package dev.argus.store;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

import java.net.ConnectException;
import java.net.SocketException;

/**
 * Whether a failure means the database could not be reached (PostgreSQL restarted, its connections terminated, the
 * network cut) rather than a bad statement: such a failure is transient, answered 503 and not logged as an
 * unexpected error. Recognised anywhere in the cause chain: the SQL client's closed connection, a socket reset or
 * refusal, the SQL client's refusal of a command on a connection it has already seen close ("Connection is not
 * active now"), and PostgreSQL's connection-exception (SQLSTATE class 08) and operator-intervention (57P01..57P05:
 * administrator shutdown, crash shutdown, cannot connect now) errors.
 */
public final class ConnectionLoss {

  private ConnectionLoss() {
  }

  /** How the SQL client words the failure of a command sent on a connection that has closed. */
  static final String INACTIVE_CONNECTION = "Connection is not active now";

  public static boolean is(Throwable err) {
    for (Throwable e = err; e != null; e = e.getCause() == e ? null : e.getCause()) {
      if (e instanceof ClosedConnectionException || e instanceof SocketException || e instanceof ConnectException
          || e instanceof io.netty.channel.ConnectTimeoutException) {
        return true;
      }
      if (e instanceof VertxException && e.getMessage() != null && e.getMessage().startsWith(INACTIVE_CONNECTION)) {
        return true;
      }
      if (e instanceof PgException pg && pg.getSqlState() != null
          && (pg.getSqlState().startsWith("08") || pg.getSqlState().startsWith("57P"))) {
        return true;
      }
    }
    return false;
  }
}
