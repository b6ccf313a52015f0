package dev.argus.records;

import dev.argus.cli.Main;
import dev.argus.config.ArgusConfig;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code argus generate-world} and {@code argus load-records} in process against a real SQLite store. */
class LoadRecordsCommandTest {

  @Test
  void generateThenLoadTwice() throws Exception {
    Path dir = TestApp.tempDataDir();
    ArgusConfig conf = TestApp.config(dir);
    Path confFile = writeConfig(dir, conf);
    Path world = dir.resolve("world.jsonl");
    assertEquals(0, run("generate-world", "--sellers", "60", "--seed", "5", "--out", world.toString()));
    assertEquals(2, run("generate-world", "--sellers", "10", "--out", world.toString()), "too few sellers");
    long lines = Files.lines(world).count();

    assertEquals(0, run("load-records", "--config", confFile.toString(), "--quiet", "--no-documents", world.toString()));
    assertTrue(out.contains("loaded " + lines + " line(s)"), out);
    assertTrue(out.contains(lines + " created"), out);
    assertEquals(0, run("load-records", "--config", confFile.toString(), "--quiet", "--no-documents", world.toString()));
    assertTrue(out.contains("0 created, 0 updated, " + lines + " unchanged"), "idempotent: " + out);

    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(bad, "{\"kind\":\"buyer\",\"id\":\"B-NEW\",\"createdAt\":\"2025-01-01T00:00:00Z\"}\nnot json\n");
    assertEquals(1, run("load-records", "--config", confFile.toString(), "--no-documents", bad.toString()));
    assertTrue(err.contains("line 2: not valid JSON"), err);
    assertTrue(err.contains("[##############################] 2/2 lines  1 stored  1 refused"), err);
    assertEquals(2, run("load-records", "--config", confFile.toString(), dir.resolve("missing.jsonl").toString()));

    Vertx vertx = Vertx.vertx();
    try {
      Database db = await(Database.sqlite(vertx, conf.data().sqliteFile()));
      JsonObject buyer = await(RecordStores.create(db).get("B-NEW")).orElseThrow();
      assertEquals("buyer", buyer.getString("kind"));
      assertEquals(lines + 1, await(RecordStores.create(db).count(null)));
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }

  /** {@code --graph}: the same pass builds the entity graph, with the store's fingerprint key (its bank nodes are the records'). */
  @Test
  void loadWithGraphBuildsTheEntityGraph() throws Exception {
    Path dir = TestApp.tempDataDir();
    ArgusConfig conf = TestApp.config(dir);
    Path confFile = writeConfig(dir, conf);
    Path world = dir.resolve("world.jsonl");
    assertEquals(0, run("generate-world", "--sellers", "60", "--seed", "9", "--out", world.toString()));
    Path sellers = dir.resolve("sellers.jsonl");
    Files.write(sellers, Files.lines(world).filter(l -> l.contains("\"kind\":\"seller\"")).toList());

    assertEquals(0, run("load-records", "--config", confFile.toString(), "--quiet", "--no-documents", sellers.toString()));
    assertEquals(0L, graphStats(conf).getLong("nodes"), "no graph without --graph");

    assertEquals(0, run("load-records", "--config", confFile.toString(), "--quiet", "--no-documents", "--graph",
        world.toString()));
    JsonObject stats = graphStats(conf);
    assertTrue(stats.getLong("edges") > 0, stats.encode());
    Vertx vertx = Vertx.vertx();
    try {
      Database db = await(Database.sqlite(vertx, conf.data().sqliteFile()));
      var graph = dev.argus.graph.GraphStores.create(db, 100);
      JsonObject payout = await(RecordStores.create(db).get(Files.lines(world)
          .filter(l -> l.contains("\"kind\":\"payout\"")).findFirst().map(l -> new JsonObject(l).getString("id"))
          .orElseThrow())).orElseThrow();
      String bank = dev.argus.graph.EntityIds.of(dev.argus.graph.Types.BANK_ACCOUNT, payout.getString("bankAccountFp"));
      assertTrue(await(graph.node(bank)).isPresent(), "the payout's bank account is a node: " + bank);
      assertTrue(await(graph.node(payout.getString("sellerId"))).isPresent(), "its seller is a node");
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }

  /** The test configuration as a file the CLI reads. */
  private static Path writeConfig(Path dir, ArgusConfig conf) throws java.io.IOException {
    return Files.writeString(dir.resolve("argus.json"), conf.raw().encodePrettily());
  }

  private static JsonObject graphStats(ArgusConfig conf) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Database db = await(Database.sqlite(vertx, conf.data().sqliteFile()));
      JsonObject stats = await(dev.argus.graph.GraphStores.create(db, 100).stats());
      await(db.close());
      return stats;
    } finally {
      await(vertx.close());
    }
  }

  private String out = "";
  private String err = "";

  private int run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    System.setOut(new PrintStream(o, true));
    System.setErr(new PrintStream(e, true));
    try {
      return new CommandLine(new Main()).execute(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
      out = o.toString();
      err = e.toString();
    }
  }
}
