package dev.argus.eval;

import dev.argus.cli.EvalRetrievalCommand;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code argus eval-retrieval} on the BEIR fixture in {@code src/test/resources/eval}. */
class EvalRetrievalCommandTest {

  private static final Path FIXTURE = Path.of("src", "test", "resources", "eval");

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    EvalRetrievalCommand cmd = new EvalRetrievalCommand().withOutput(
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CommandLine(cmd).execute(args);
  }

  private List<String> fixtureArgs(String... extra) {
    List<String> args = new ArrayList<>(List.of("--corpus", FIXTURE.resolve("corpus.jsonl").toString(),
        "--queries", FIXTURE.resolve("queries.jsonl").toString(), "--qrels", FIXTURE.resolve("qrels.tsv").toString()));
    args.addAll(List.of(extra));
    return args;
  }

  @Test
  void badArgumentsExitWithTwoAndAMessage() {
    assertEquals(2, run(fixtureArgs("--modes", "vector,bm25").toArray(String[]::new)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown mode 'bm25'"), err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(2, run("--corpus", "no/such/corpus.jsonl", "--queries", "q", "--qrels", "r"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no/such/corpus.jsonl"));
    err.reset();
    assertEquals(2, run(fixtureArgs("--skip-ingest").toArray(String[]::new)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--skip-ingest needs --store"));
    err.reset();
    assertEquals(2, run(fixtureArgs("--k", "0").toArray(String[]::new)));
    err.reset();
    assertEquals(2, run(fixtureArgs("--collapse", "chunk").toArray(String[]::new)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--collapse must be none or document"),
        err.toString(StandardCharsets.UTF_8));
  }

  /**
   * End to end: a fresh temporary store, ingestion through the API, every query in every mode through
   * {@code argus.retrieve.search}.
   */
  @Test
  void evaluatesTheFixtureInEveryMode(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("out").resolve("eval.json");
    int code = run(fixtureArgs("--json", json.toString()).toArray(String[]::new));
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, stderr);
    // one table: header, rule, four rows in the order asked; then a blank line and the first mode compared with
    // each of the other three
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(10, lines.length, out.toString(StandardCharsets.UTF_8));
    assertTrue(lines[7].startsWith("vector vs keyword: mean nDCG@10 difference "), lines[7]);
    assertTrue(lines[9].startsWith("vector vs hybrid: ") && lines[9].contains("paired randomization p"), lines[9]);
    assertTrue(stderr.contains("ingested 8 documents"), stderr);

    JsonArray modes = new JsonObject(Files.readString(json)).getJsonArray("modes");
    assertEquals(4, modes.size());
    List<String> names = new ArrayList<>();
    for (int i = 0; i < modes.size(); i++) {
      JsonObject m = modes.getJsonObject(i);
      names.add(m.getString("mode"));
      assertEquals(5, m.getInteger("queries"), "q6 has no judgment and is skipped");
      for (String key : List.of("ndcg@10", "recall@100", "mrr")) {
        double v = m.getDouble(key);
        assertTrue(v >= 0 && v <= 1, key + " = " + v);
      }
      assertTrue(m.getDouble("p95Ms") >= m.getDouble("p50Ms"));
    }
    assertEquals(List.of("vector", "keyword", "trigram", "hybrid"), names);
    JsonArray comparisons = new JsonObject(Files.readString(json)).getJsonArray("comparisons");
    assertEquals(3, comparisons.size());
    for (int i = 0; i < comparisons.size(); i++) {
      JsonObject c = comparisons.getJsonObject(i);
      assertEquals("vector", c.getString("a"));
      assertEquals(names.get(i + 1), c.getString("b"));
      assertEquals(5, c.getInteger("wins") + c.getInteger("losses") + c.getInteger("ties"), c.encode());
      assertTrue(c.getDouble("p") > 0 && c.getDouble("p") <= 1, c.encode());
    }
    JsonObject vector = modes.getJsonObject(0);
    JsonObject hybrid = modes.getJsonObject(3);
    // the corpus has 8 documents and topK is 100: dense retrieval returns every document -> recall@100 = 1
    assertEquals(1.0, vector.getDouble("recall@100"), 1e-9);
    assertEquals(1.0, hybrid.getDouble("recall@100"), 1e-9);
    // the queries paraphrase their judged documents closely; a working hybrid ranks them near the top
    assertTrue(hybrid.getDouble("ndcg@10") >= 0.6, hybrid.encode());
    assertTrue(hybrid.getDouble("mrr") >= 0.6, hybrid.encode());
  }
}
