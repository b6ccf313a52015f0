package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chat that waits for a slot gets its stream at once, on the real server with a real SSE client
 * ({@code agent.maxConcurrentChats} 1, {@code agent.sseHeartbeatMs} 200; every search reaches the real retriever 2 s
 * late, so the first chat holds the only slot for at least 2 s): status 200 and a {@code queued} event without an id
 * while the first still runs, heartbeat comments while it waits, then its run's events from id 1 to {@code final}. A
 * waiting client that disconnects leaves the queue at once (the one place is free again for the next chat) and gets
 * no run; overflow is still 503 JSON.
 */
class QueuedChatTest {

  private static final long HEARTBEAT_MS = 200;
  private static final long SEARCH_DELAY_MS = 2_000;

  private Vertx vertx;
  private TestApp app;
  private SseClient client;

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(300, TimeUnit.SECONDS);
  }

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir()).with("agent", "cacheTtlMs", 0)
        .with("agent", "maxConcurrentChats", 1).with("agent", "maxQueuedChats", 1)
        .with("agent", "sseHeartbeatMs", HEARTBEAT_MS)));
    BusFault.on(vertx, Addresses.RETRIEVE_SEARCH).delayMs = SEARCH_DELAY_MS;
    client = new SseClient(vertx, app.port());
  }

  @AfterEach
  void stop() throws Exception {
    await(vertx.close());
  }

  /** When each event type was first received (nanoTime), recorded as the client parses it. */
  private static final class Arrivals {
    final ConcurrentHashMap<String, Long> first = new ConcurrentHashMap<>();

    boolean note(SseClient.Event e) {
      first.putIfAbsent(e.type(), System.nanoTime());
      return false;
    }

    long at(String type) {
      Long t = first.get(type);
      assertNotNull(t, "no '" + type + "' event received");
      return t;
    }
  }

  @Test
  void aWaitingChatGetsItsStreamAtOnceWithHeartbeatsThenItsRun() throws Exception {
    Arrivals firstSeen = new Arrivals();
    Arrivals secondSeen = new Arrivals();
    Future<SseClient.Result> first = client.post("/api/chat", new JsonObject().put("question", "First?"),
        firstSeen::note);
    Thread.sleep(300); // the first has the slot
    long asked = System.nanoTime();
    Future<SseClient.Result> second = client.post("/api/chat", new JsonObject().put("question", "Second?"),
        secondSeen::note);
    SseClient.Result a = await(first);
    SseClient.Result b = await(second);

    // the first was admitted at once: answered as before, no queued event, its stream starts with its run
    assertEquals(200, a.status(), a.body());
    assertEquals("run", a.types().get(0), a.types().toString());
    assertFalse(a.types().contains("queued"), a.types().toString());
    assertEquals("final", a.types().get(a.types().size() - 1), a.types().toString());

    // the second: 200 and `queued` (no id, its run id, place 1) while the first was still running
    assertEquals(200, b.status(), b.body());
    String runId = b.headers().get("X-Run-Id");
    assertNotNull(runId);
    SseClient.Event queued = b.events().get(0);
    assertEquals("queued", queued.type(), b.types().toString());
    assertEquals(-1, queued.id(), "the queued event carries no id");
    assertEquals(new JsonObject().put("runId", runId).put("position", 1), queued.data());
    assertTrue(secondSeen.at("queued") < firstSeen.at("final"), "queued came "
        + (secondSeen.at("queued") - firstSeen.at("final")) / 1_000_000 + " ms after the first's final");
    assertTrue((secondSeen.at("queued") - asked) / 1_000_000 < SEARCH_DELAY_MS, "queued came "
        + (secondSeen.at("queued") - asked) / 1_000_000 + " ms after the request");

    // it waited at least the first's remaining search time (2 s - 0.3 s): at 200 ms, several heartbeats before `run`
    String raw = b.body();
    int runAt = raw.indexOf("event: run\n");
    assertTrue(runAt > 0, raw);
    int heartbeats = count(raw.substring(0, runAt), ": heartbeat\n");
    assertTrue(heartbeats >= 3, heartbeats + " heartbeats before the run event: " + raw.substring(0, runAt));

    // then its own run, after the first's end, ids from 1 in order, to `final`
    assertTrue(secondSeen.at("run") > firstSeen.at("final"), "the second's run began before the first ended");
    List<SseClient.Event> runEvents = b.events().subList(1, b.events().size());
    for (int i = 0; i < runEvents.size(); i++) {
      assertEquals(i + 1, runEvents.get(i).id(), b.types().toString());
    }
    assertEquals(runId, runEvents.get(0).data().getString("runId"));
    assertEquals("final", b.types().get(b.types().size() - 1), b.types().toString());
    assertEquals(1, b.all("queued").size(), b.types().toString());

    // replay by Last-Event-ID is the run's log: after id 1 it starts at id 2, no queued event
    SseClient.Result replay = await(client.get("/api/runs/" + runId + "/events", "1", null));
    assertEquals(200, replay.status(), replay.body());
    assertEquals(2, replay.events().get(0).id(), replay.types().toString());
    assertEquals(runEvents.size() - 1, replay.events().size(), replay.types().toString());
    assertFalse(replay.types().contains("queued"), replay.types().toString());
  }

  @Test
  void aWaitingClientThatLeavesGivesItsPlaceBackAndGetsNoRun() throws Exception {
    Arrivals firstSeen = new Arrivals();
    Arrivals thirdSeen = new Arrivals();
    Future<SseClient.Result> first = client.post("/api/chat", new JsonObject().put("question", "First?"),
        firstSeen::note);
    Thread.sleep(300);
    // the second takes the only place in the queue and leaves as soon as it reads `queued`
    SseClient.Result gone = await(client.post("/api/chat", new JsonObject().put("question", "Gone?"),
        e -> e.type().equals("queued")));
    assertEquals(200, gone.status(), gone.body());
    assertEquals(List.of("queued"), gone.types());
    String goneRunId = gone.headers().get("X-Run-Id");
    Thread.sleep(300); // the server sees the connection close

    // its place is free again: the third is queued (200), not refused, although the first still runs
    Future<SseClient.Result> third = client.post("/api/chat", new JsonObject().put("question", "Third?"),
        thirdSeen::note);
    Thread.sleep(300);
    // and the queue (one place) is full again: the fourth is refused with JSON before any stream
    SseClient.Result fourth = await(client.post("/api/chat", new JsonObject().put("question", "Fourth?"), null));
    assertEquals(503, fourth.status(), fourth.body());
    assertTrue(fourth.headers().get("Content-Type").startsWith("application/json"), fourth.headers().toString());
    JsonObject refusal = new JsonObject(fourth.body());
    assertEquals("overloaded", refusal.getString("code"), fourth.body());
    assertFalse(refusal.getString("error", "").isBlank(), fourth.body());
    assertTrue(fourth.events().isEmpty());

    SseClient.Result a = await(first);
    SseClient.Result c = await(third);
    assertEquals("final", a.types().get(a.types().size() - 1), a.types().toString());
    assertEquals(200, c.status(), c.body());
    assertEquals("queued", c.types().get(0), c.types().toString());
    assertEquals(1, c.events().get(0).data().getInteger("position").intValue(), "the gone chat no longer counts ahead of it");
    assertEquals("final", c.types().get(c.types().size() - 1), c.types().toString());
    assertTrue(thirdSeen.at("run") > firstSeen.at("final"), "the third's run began before the first ended");

    // no run was created for the client that left: its id is unknown, and the store holds exactly the two others
    SseClient.Result goneRun = await(client.get("/api/runs/" + goneRunId, null, null));
    assertEquals(404, goneRun.status(), goneRun.body());
    SseClient.Result list = await(client.get("/api/runs?limit=50", null, null));
    assertEquals(200, list.status(), list.body());
    Set<String> ids = new HashSet<>();
    for (Object o : new JsonObject(list.body()).getJsonArray("items", new JsonArray())) {
      ids.add(((JsonObject) o).getString("runId"));
    }
    assertEquals(Set.of(a.headers().get("X-Run-Id"), c.headers().get("X-Run-Id")), ids);
  }

  @Test
  void aWaitingChatWhoseRunCannotStartEndsWithAnErrorEvent() throws Exception {
    Future<SseClient.Result> first = client.post("/api/chat", new JsonObject().put("question", "First?"), null);
    Thread.sleep(300);
    SseClient.Result bad = await(client.post("/api/chat", new JsonObject().put("question", "Which profile?")
        .put("profile", "no-such-profile"), null));
    // its stream had begun, so the coordinator's 400 comes as the stream's last event, without an id
    assertEquals(200, bad.status(), bad.body());
    assertEquals(List.of("queued", "error"), bad.types());
    SseClient.Event error = bad.events().get(1);
    assertEquals(-1, error.id());
    assertEquals("unknown_profile", error.data().getString("code"), error.data().encode());
    assertFalse(error.data().getString("error", "").isBlank(), error.data().encode());
    // and it gave its slot on: a chat asked after it is queued and runs
    SseClient.Result next = await(client.post("/api/chat", new JsonObject().put("question", "Next?"), null));
    assertEquals("final", next.types().get(next.types().size() - 1), next.types().toString());
    SseClient.Result a = await(first);
    assertEquals("final", a.types().get(a.types().size() - 1), a.types().toString());
  }

  private static int count(String text, String needle) {
    Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
