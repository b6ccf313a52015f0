package dev.argus.llm;

import io.vertx.core.Context;
import io.vertx.core.Future;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Starts a call on a Vert.x context and waits for it on the test thread. */
final class OnContext {

  private OnContext() {
  }

  static <T> CompletableFuture<T> start(Context ctx, Supplier<Future<T>> call) {
    CompletableFuture<T> cf = new CompletableFuture<>();
    ctx.runOnContext(v -> call.get().onComplete(ar -> {
      if (ar.succeeded()) {
        cf.complete(ar.result());
      } else {
        cf.completeExceptionally(ar.cause());
      }
    }));
    return cf;
  }

  static <T> T await(Context ctx, Supplier<Future<T>> call) throws Exception {
    return start(ctx, call).get(15, TimeUnit.SECONDS);
  }

  /** The failure of the call (fails the test if it succeeded). */
  static Throwable failure(Context ctx, Supplier<Future<?>> call) throws Exception {
    try {
      Object result = start(ctx, call::get).get(15, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure, got " + result);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }
}
