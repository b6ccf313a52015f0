package dev.argus.llm;

import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.config.LlmConf;
import dev.argus.config.Settings;
import dev.argus.testing.FakeAnthropicServer;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class LlmConfAndSecretsTest {

  private static final String SECRET = "sk-argus-SECRET-4f9c2e";

  @Test
  void defaultsToNoneAndValidatesProviders() {
    LlmConf none = LlmConf.from(new Settings("llm", null));
    assertEquals("none", none.provider());
    assertFalse(none.enabled());

    ConfigException noUrl = assertThrows(ConfigException.class,
        () -> LlmConf.from(new Settings("llm", new JsonObject().put("provider", "openai").put("model", "m"))));
    assertTrue(noUrl.getMessage().contains("llm.baseUrl (env ARGUS_LLM_BASE_URL)"), noUrl.getMessage());
    ConfigException noModel = assertThrows(ConfigException.class, () -> LlmConf.from(new Settings("llm",
        new JsonObject().put("provider", "anthropic").put("baseUrl", "https://api.anthropic.com"))));
    assertTrue(noModel.getMessage().contains("llm.model"), noModel.getMessage());
    ConfigException badProvider = assertThrows(ConfigException.class,
        () -> LlmConf.from(new Settings("llm", new JsonObject().put("provider", "gemini"))));
    assertTrue(badProvider.getMessage().contains("none, openai, anthropic"), badProvider.getMessage());
    ConfigException badRetries = assertThrows(ConfigException.class,
        () -> LlmConf.from(new Settings("llm", new JsonObject().put("maxRetries", 99))));
    assertTrue(badRetries.getMessage().contains("llm.maxRetries"), badRetries.getMessage());
  }

  @Test
  void theConfFileHasTheSectionAndTheKeyComesFromTheEnvironment() {
    ArgusConfig conf = ArgusConfig.load(ArgusConfig.DEFAULT_FILE, Map.of(
        "ARGUS_LLM_PROVIDER", "openai",
        "ARGUS_LLM_BASE_URL", "http://localhost:11434",
        "ARGUS_LLM_MODEL", "llama3.1",
        "ARGUS_LLM_API_KEY", SECRET,
        "ARGUS_LLM_TIMEOUT_MS", "1234"));
    LlmConf llm = conf.llm();
    assertEquals("openai", llm.provider());
    assertEquals(SECRET, llm.apiKey());
    assertEquals(1234, llm.timeoutMs());
    assertFalse(llm.toString().contains(SECRET), llm.toString());
    assertTrue(llm.toString().contains("apiKey=***"));
    assertEquals("none", ArgusConfig.load(ArgusConfig.DEFAULT_FILE, Map.of()).llm().provider());
  }

  @Test
  void theApiKeyNeverAppearsInLogsMessagesOrToString(Vertx vertx) throws Exception {
    List<String> logged = new ArrayList<>();
    SimpleFormatter formatter = new SimpleFormatter();
    Handler capture = new Handler() {
      @Override
      public synchronized void publish(LogRecord record) {
        logged.add(formatter.format(record));
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    Logger root = Logger.getLogger("");
    Level rootLevel = root.getLevel();
    root.addHandler(capture);
    root.setLevel(Level.ALL);
    Logger.getLogger("dev.argus.llm").setLevel(Level.ALL);
    Logger.getLogger("dev.argus.provider").setLevel(Level.ALL);
    Logger.getLogger("okhttp3").setLevel(Level.ALL);
    FakeOpenAiServer openAi = FakeOpenAiServer.start(vertx).await();
    FakeAnthropicServer anthropic = FakeAnthropicServer.start(vertx).await();
    Context ctx = vertx.getOrCreateContext();
    JsonObject overrides = new JsonObject().put("apiKey", SECRET).put("maxRetries", 1).put("retryBaseMs", 1);
    LlmClient gpt = LlmClients.create(vertx, openAi.llmConf(overrides));
    LlmClient claude = LlmClients.create(vertx, anthropic.llmConf(overrides));
    List<String> texts = new ArrayList<>();
    try {
      openAi.enqueue(FakeReply.text("fine"),
          FakeReply.error(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + SECRET + "\"}}"),
          FakeReply.error(500, "upstream said " + SECRET), FakeReply.error(500, "again " + SECRET));
      anthropic.enqueue(FakeReply.text("fine"), FakeReply.error(403, "{\"error\":{\"message\":\"key " + SECRET + "\"}}"));
      ChatRequest hi = ChatRequest.of(List.of(ChatMessage.user("hi")));

      assertEquals("fine", OnContext.await(ctx, () -> gpt.chat(hi)).content());
      texts.add(OnContext.failure(ctx, () -> gpt.chat(hi)).getMessage());
      texts.add(OnContext.failure(ctx, () -> gpt.stream(hi, t -> { })).getMessage());
      assertEquals("fine", OnContext.await(ctx, () -> claude.stream(hi, t -> { })).content());
      texts.add(OnContext.failure(ctx, () -> claude.chat(hi)).getMessage());
      texts.add(gpt.toString());
      texts.add(claude.toString());

      assertEquals("Bearer " + SECRET, openAi.requests().get(0).header("Authorization"), "the key is sent");
      assertEquals(SECRET, anthropic.requests().get(0).header("x-api-key"));
    } finally {
      root.removeHandler(capture);
      root.setLevel(rootLevel);
      Logger.getLogger("dev.argus.llm").setLevel(null);
      Logger.getLogger("dev.argus.provider").setLevel(null);
      Logger.getLogger("okhttp3").setLevel(null);
      gpt.close();
      claude.close();
      openAi.close();
      anthropic.close();
    }
    assertTrue(texts.get(0).contains("HTTP 401"), texts.get(0));
    assertFalse(texts.get(0).contains("Incorrect API key"), "the provider's body stays in the log: " + texts.get(0));
    assertFalse(logged.isEmpty(), "failures were logged");
    synchronized (capture) {
      assertTrue(logged.stream().anyMatch(line -> line.contains("Incorrect API key provided: ***")),
          "the error body is logged with the key redacted");
    }
    for (String text : texts) {
      assertFalse(text.contains(SECRET), "secret in " + text);
    }
    synchronized (capture) {
      for (String line : logged) {
        assertFalse(line.contains(SECRET), "secret logged: " + line);
      }
    }
  }
}
