package dev.argus.access;

import dev.argus.cli.Main;
import dev.argus.config.ArgusConfig;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code argus keys create|list|revoke} on a real SQLite store: the key printed once, only its hash stored. */
class KeysCommandTest {

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
      int exit = new CommandLine(new Main()).execute(args);
      return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  @Test
  void createListRevoke() throws Exception {
    Path data = TestApp.tempDataDir();
    ArgusConfig conf = TestApp.config(data);
    Path configFile = data.resolve("argus.json");
    Files.writeString(configFile, conf.raw().encodePrettily());
    String config = configFile.toString();

    Run created = run("keys", "create", "--role", "analyst", "--namespaces", "alpha,beta", "--rate-limit", "120",
        "--label", "fraud team", "--config", config);
    assertEquals(0, created.exit(), created.err());
    String key = created.out().strip();
    KeySecrets.Parsed parsed = KeySecrets.parse(key).orElseThrow(() -> new AssertionError("not a key: " + key));
    assertTrue(created.err().contains("shown only this once"), created.err());

    Run list = run("keys", "list", "--config", config);
    assertEquals(0, list.exit(), list.err());
    assertTrue(list.out().contains(parsed.id()) && list.out().contains("analyst") && list.out().contains("alpha,beta")
        && list.out().contains("120") && list.out().contains("fraud team"), list.out());
    assertFalse(list.out().contains(parsed.secret()), "list never shows a secret");

    assertEquals(2, run("keys", "create", "--role", "root", "--config", config).exit());
    assertEquals(2, run("keys", "create", "--role", "reader", "--namespaces", "../etc", "--config", config).exit());
    assertEquals(2, run("keys", "create", "--role", "reader", "--rate-limit", "-5", "--config", config).exit());

    Vertx vertx = Vertx.vertx();
    try {
      Database db = await(Database.sqlite(vertx, conf.data().sqliteFile()));
      KeyRing ring = new KeyRing(KeyStore.of(db));
      await(ring.reload());
      ApiKey stored = ring.match(key).orElseThrow();
      assertEquals(Role.ANALYST, stored.role());
      assertEquals(List.of("alpha", "beta"), stored.namespaces());
      assertEquals(120, stored.rateLimit());
      assertEquals("cli", stored.createdBy());

      Run revoked = run("keys", "revoke", parsed.id(), "--config", config);
      assertEquals(0, revoked.exit(), revoked.err());
      assertEquals(2, run("keys", "revoke", parsed.id(), "--config", config).exit(), "revoking twice: no active key");
      await(ring.reload());
      assertTrue(ring.match(key).isEmpty());
      List<String> actions = await(AuditStore.of(db).list(0, 10)).stream().map(e -> e.actor() + " " + e.action())
          .toList();
      assertEquals(List.of("cli keys.revoke", "cli keys.create"), actions);
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }
}
