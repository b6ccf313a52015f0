package dev.argus.llm;

import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class LlmResilienceTest {

  private static final ChatRequest HELLO = ChatRequest.of(List.of(ChatMessage.user("hello")));

  private Vertx vertx;
  private FakeOpenAiServer server;
  private LlmClient client;
  private Context ctx;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    server = FakeOpenAiServer.start(vertx).await();
    ctx = vertx.getOrCreateContext();
  }

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close().await();
    }
    server.close().await();
  }

  private LlmClient client(JsonObject overrides) {
    client = LlmClients.create(vertx, server.llmConf(overrides));
    return client;
  }

  @Test
  void retryAfterOn429IsHonoured() throws Exception {
    client(new JsonObject().put("retryBaseMs", 5));
    server.enqueue(FakeReply.error(429).header("Retry-After", "1"), FakeReply.text("after the wait"));

    ChatResult result = OnContext.await(ctx, () -> client.chat(HELLO));

    assertEquals("after the wait", result.content());
    assertEquals(2, server.requestCount());
    long waited = server.requests().get(1).receivedAtMs() - server.requests().get(0).receivedAtMs();
    assertTrue(waited >= 1000, "retried after " + waited + " ms, Retry-After asked for 1000 ms");
    assertEquals(1, client.stats().retries());
  }

  @Test
  void aRetryAfterLongerThanRetryMaxFailsAtOnce() throws Exception {
    client(new JsonObject().put("retryMaxMs", 2000));
    server.enqueue(FakeReply.error(429).header("Retry-After", "120"), FakeReply.text("too late"));

    long start = System.nanoTime();
    Throwable err = OnContext.failure(ctx, () -> client.chat(HELLO));

    assertEquals(429, assertInstanceOf(LlmProviderException.class, err).status());
    assertEquals(120_000, ((LlmProviderException) err).retryAfterMs());
    assertEquals(1, server.requestCount());
    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 1000);
  }

  @Test
  void serverErrorsAreRetriedThenTheBreakerOpensAndFailsFast() throws Exception {
    client(new JsonObject().put("maxRetries", 2).put("breakerFailures", 3));
    server.respondWith(req -> FakeReply.error(500));

    Throwable first = OnContext.failure(ctx, () -> client.chat(HELLO));
    assertEquals(500, assertInstanceOf(LlmProviderException.class, first).status());
    assertEquals(3, server.requestCount(), "one call and two retries");
    assertEquals("OPEN", ((HttpChatClient) client).breakerState());

    long start = System.nanoTime();
    Throwable second = OnContext.failure(ctx, () -> client.chat(HELLO));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertInstanceOf(LlmUnavailableException.class, second);
    assertTrue(second.getMessage().contains("circuit breaker is open"), second.getMessage());
    assertEquals(3, server.requestCount(), "the open breaker does not reach the server");
    assertTrue(ms < 200, "failed fast in " + ms + " ms");
    assertEquals(1, client.stats().rejected());
    assertEquals(2, client.stats().failed());
  }

  @Test
  void clientErrorsAreNotRetriedAndDoNotTripTheBreaker() throws Exception {
    client(new JsonObject().put("breakerFailures", 1));
    server.enqueue(FakeReply.error(400), FakeReply.text("ok"));

    Throwable err = OnContext.failure(ctx, () -> client.chat(HELLO));

    assertEquals(400, assertInstanceOf(LlmProviderException.class, err).status());
    assertEquals(1, server.requestCount());
    assertEquals("CLOSED", ((HttpChatClient) client).breakerState());
    assertEquals("ok", OnContext.await(ctx, () -> client.chat(HELLO)).content());
  }

  @Test
  void slownessTimesOutAndRepeatedSlownessOpensTheBreaker() throws Exception {
    client(new JsonObject().put("timeoutMs", 200).put("breakerFailures", 2));
    server.respondWith(req -> FakeReply.text("too late").delay(1500));

    long start = System.nanoTime();
    Throwable err = OnContext.failure(ctx, () -> client.chat(HELLO));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertInstanceOf(LlmUnavailableException.class, err);
    assertTrue(err.getMessage().contains("timed out after 200 ms"), err.getMessage());
    assertTrue(ms >= 190 && ms < 1200, "timed out after " + ms + " ms");
    assertEquals(1, server.requestCount(), "a timeout is not retried");

    OnContext.failure(ctx, () -> client.stream(HELLO, t -> { }));
    assertEquals(2, server.requestCount());
    Throwable fast = OnContext.failure(ctx, () -> client.chat(HELLO));
    assertTrue(fast.getMessage().contains("circuit breaker is open"), fast.getMessage());
    assertEquals(2, server.requestCount());
  }

  @Test
  void aStreamThatGoesSilentTimesOut() throws Exception {
    client(new JsonObject().put("timeoutMs", 200));
    server.enqueue(FakeReply.tokens("a", "b").tokenDelay(800));
    List<String> tokens = new CopyOnWriteArrayList<>();

    Throwable err = OnContext.failure(ctx, () -> client.stream(HELLO, tokens::add));

    assertInstanceOf(LlmUnavailableException.class, err);
    assertTrue(err.getMessage().contains("timed out after 200 ms"), err.getMessage());
    assertEquals(List.of(), tokens);
    assertEquals(1, server.requestCount());
  }

  @Test
  void concurrentRequestsAreCappedAndTheRestQueued() throws Exception {
    client(new JsonObject().put("maxConcurrent", 2).put("maxQueued", 10));
    server.respondWith(req -> FakeReply.text("slow answer").delay(150));

    List<CompletableFuture<ChatResult>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      calls.add(OnContext.start(ctx, () -> client.chat(HELLO)));
    }
    for (CompletableFuture<ChatResult> call : calls) {
      assertEquals("slow answer", call.get(10, TimeUnit.SECONDS).content());
    }

    assertEquals(6, server.requestCount());
    assertEquals(2, server.maxConcurrent(), "the server saw at most the cap at once");
  }

  @Test
  void aFullQueueRefusesAtOnce() throws Exception {
    client(new JsonObject().put("maxConcurrent", 1).put("maxQueued", 1).put("breakerFailures", 1));
    server.respondWith(req -> FakeReply.text("ok").delay(300));

    CompletableFuture<ChatResult> running = OnContext.start(ctx, () -> client.chat(HELLO));
    CompletableFuture<ChatResult> queued = OnContext.start(ctx, () -> client.chat(HELLO));
    Throwable refused = OnContext.failure(ctx, () -> client.chat(HELLO));

    assertInstanceOf(LlmUnavailableException.class, refused);
    assertTrue(refused.getMessage().contains("too many concurrent"), refused.getMessage());
    assertEquals("ok", running.get(5, TimeUnit.SECONDS).content());
    assertEquals("ok", queued.get(5, TimeUnit.SECONDS).content());
    assertEquals(2, server.requestCount());
    assertEquals("CLOSED", ((HttpChatClient) client).breakerState(), "our own queue limit is not a provider failure");
  }

  @Test
  void aStreamIsRetriedBeforeItsFirstTokenButNeverAfter() throws Exception {
    client(new JsonObject().put("maxRetries", 2));
    server.enqueue(FakeReply.error(503), FakeReply.text("first try"));
    List<String> tokens = new CopyOnWriteArrayList<>();
    assertEquals("first try", OnContext.await(ctx, () -> client.stream(HELLO, tokens::add)).content());
    assertEquals(2, server.requestCount());

    server.enqueue(FakeReply.text("one two three four").tokenDelay(20).disconnectAfter(3), FakeReply.text("never"));
    List<String> partial = new CopyOnWriteArrayList<>();
    Throwable err = OnContext.failure(ctx, () -> client.stream(HELLO, partial::add));

    assertInstanceOf(LlmUnavailableException.class, err);
    assertEquals(List.of("one", " two"), partial);
    assertEquals(3, server.requestCount(), "no retry once tokens were emitted");
  }

  @Test
  void networkErrorsAreRetriedThenReported() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    client(new JsonObject().put("baseUrl", "http://127.0.0.1:" + closedPort).put("maxRetries", 2));

    Throwable err = OnContext.failure(ctx, () -> client.chat(HELLO));

    assertInstanceOf(LlmUnavailableException.class, err);
    assertTrue(err.getMessage().startsWith("openai LLM failed"), err.getMessage());
    assertEquals(2, client.stats().retries());
    assertEquals(1, client.stats().failed());
  }

  @Test
  void resultsAndTokensArriveOnAWorkerVerticlesContext() throws Exception {
    client(new JsonObject());
    server.enqueue(FakeReply.text("from a worker"));
    CompletableFuture<List<Boolean>> checks = new CompletableFuture<>();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        Context mine = Vertx.currentContext();
        List<Boolean> same = new CopyOnWriteArrayList<>();
        same.add(mine.isWorkerContext());
        client.stream(HELLO, t -> same.add(Vertx.currentContext() == mine))
            .onComplete(ar -> {
              same.add(ar.succeeded() && Vertx.currentContext() == mine);
              checks.complete(same);
            });
        return Future.succeededFuture();
      }
    }, new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).await();
    assertEquals(List.of(true, true, true, true, true), checks.get(5, TimeUnit.SECONDS));
  }

  @Test
  void noneProviderIsDisabled() {
    LlmClient none = LlmClients.create(vertx, dev.argus.config.LlmConf.from(new dev.argus.config.Settings("llm", null)));
    assertEquals("none", none.provider());
    assertTrue(!none.enabled());
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> none.chat(HELLO).toCompletionStage().toCompletableFuture().get(1, TimeUnit.SECONDS));
    assertEquals("no LLM configured", e.getCause().getMessage());
    Future<ChatResult> streamed = none.stream(HELLO, t -> { });
    assertTrue(streamed.failed() && streamed.cause() instanceof LlmUnavailableException);
  }
}
