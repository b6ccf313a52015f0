package dev.argus.ingest;

import dev.argus.cli.IngestCommand;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code argus ingest <folder>} in process against a real SQLite store and a fake embedding server. */
class IngestCommandTest {

  private record Run(int exit, String out, String err) {
  }

  private static Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int exit = new CommandLine(new IngestCommand()).execute(args);
      return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  @Test
  void ingestsFoldersRecursivelyWithProgressAndSummary() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
      Path data = TestApp.tempDataDir();
      ArgusConfig conf = embeddings.configure(TestApp.config(data));
      Path configFile = data.resolve("argus.json");
      Files.writeString(configFile, conf.raw().encodePrettily());

      Path docs = Files.createTempDirectory("argus-cli-docs-");
      Files.createDirectories(docs.resolve("sub/deeper"));
      Files.writeString(docs.resolve("policy.md"), "---\nid: cli-policy\ntitle: CLI policy\n---\n# Policy\n\nBe careful.");
      Files.writeString(docs.resolve("sub/notes.txt"), "Plain notes.");
      Files.writeString(docs.resolve("sub/deeper/page.htm"), "<title>Page</title><p>Hello page.</p>");
      Files.writeString(docs.resolve("sub/batch.jsonl"), "{\"id\":\"j1\",\"title\":\"J1\",\"text\":\"One.\"}\n"
          + "{\"id\":\"j2\",\"title\":\"J2\",\"text\":\"Two.\"}\n");
      Files.writeString(docs.resolve("ignored.pdf"), "%PDF");

      Run first = run("--config", configFile.toString(), docs.toString());
      assertEquals(0, first.exit(), first.out() + first.err());
      assertTrue(first.out().contains("ingested 5 document(s)"), first.out());
      assertTrue(first.out().contains("5 created, 0 replaced, 0 unchanged, 0 failed"), first.out());
      assertTrue(first.err().contains("5/5 docs"), "progress bar: " + first.err());
      assertTrue(first.err().contains("skipped 1 unsupported file(s)") && first.err().contains("ignored.pdf"),
          "skipped files are listed: " + first.err());

      Run second = run("--config", configFile.toString(), "--quiet", docs.toString());
      assertEquals(0, second.exit(), second.err());
      assertTrue(second.out().contains("0 created, 0 replaced, 5 unchanged, 0 failed"), second.out());

      Files.writeString(docs.resolve("empty.md"), "   \n");
      Files.writeString(docs.resolve("bad.jsonl"), "{\"id\":\"b1\",\"title\":\"B\",\"text\":\"ok\"}\nnot json\n");
      Run third = run("--config", configFile.toString(), "--quiet", docs.toString());
      assertEquals(1, third.exit(), "a failed document makes the exit status non-zero");
      assertTrue(third.out().contains("2 failed"), third.out());
      assertTrue(third.err().contains("bad.jsonl line 2"), third.err());
      assertTrue(third.err().contains("empty.md"), third.err());
      assertTrue(third.out().contains("1 created"), "the good line of bad.jsonl is stored: " + third.out());

      assertEquals(2, run("--config", configFile.toString(), docs.resolve("nope").toString()).exit());
      assertEquals(2, run("--config", configFile.toString(), docs.resolve("ignored.pdf").toString()).exit());

      TestApp app = await(TestApp.start(vertx, conf));
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      JsonObject page = await(client.get("/api/documents").send()).bodyAsJsonObject();
      assertEquals(6, page.getLong("total"), page.encode());
      assertEquals("CLI policy", await(client.get("/api/documents/cli-policy").send()).bodyAsJsonObject()
          .getString("title"));
      await(app.stop());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void refusesClearlyWhileAServerHoldsTheDataFolder() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
      Path data = TestApp.tempDataDir();
      ArgusConfig conf = embeddings.configure(TestApp.config(data));
      Path configFile = data.resolve("argus.json");
      Files.writeString(configFile, conf.raw().encodePrettily());
      Path doc = Files.createTempDirectory("argus-cli-lock-").resolve("note.txt");
      Files.writeString(doc, "A note for the locked store.");

      TestApp app = await(TestApp.start(vertx, conf));
      Run refused = run("--config", configFile.toString(), "--quiet", doc.toString());
      assertEquals(2, refused.exit(), refused.err());
      assertTrue(refused.err().contains("is in use by argus serve"), refused.err());
      assertTrue(refused.err().contains("POST /api/documents"), "says what to do instead: " + refused.err());
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      assertEquals(0L, await(client.get("/api/documents").send()).bodyAsJsonObject().getLong("total"),
          "nothing was written behind the server's back");
      await(app.stop());

      Run allowed = run("--config", configFile.toString(), "--quiet", doc.toString());
      assertEquals(0, allowed.exit(), allowed.err());
      assertTrue(allowed.out().contains("1 created"), allowed.out());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void progressLineShowsCountsAndRate() {
    assertEquals("[###############...............] 5/10 docs  7 chunks  2.5 docs/s",
        IngestCommand.progressLine(5, 10, 7, 2_000_000_000L));
  }
}
