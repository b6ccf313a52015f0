package dev.argus.testing;

import io.vertx.core.Future;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one way tests wait for a future on the test thread (never on an event loop): the result, or the future's own
 * failure rethrown unchanged when it is unchecked (so {@code assertThrows(ApiException.class, ...)} works).
 */
public final class Await {

  /** Long enough for a cold ONNX model load on a busy 2-core machine; a hang still fails the test. */
  public static final long DEFAULT_SECONDS = 120;

  private Await() {
  }

  public static <T> T await(Future<T> future) {
    return await(future, DEFAULT_SECONDS);
  }

  public static <T> T await(Future<T> future, long seconds) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    } catch (TimeoutException e) {
      throw new AssertionError("no result within " + seconds + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
