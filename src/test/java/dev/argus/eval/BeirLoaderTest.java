package dev.argus.eval;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BeirLoaderTest {

  static final Path FIXTURE = Path.of("src", "test", "resources", "eval");

  @Test
  void loadsTheFixture() throws IOException {
    BeirDataset ds = BeirLoader.load(FIXTURE.resolve("corpus.jsonl"), FIXTURE.resolve("queries.jsonl"),
        FIXTURE.resolve("qrels.tsv"));
    assertEquals(8, ds.corpus().size());
    assertEquals("d1", ds.corpus().get(0).id());
    assertEquals("Card testing attacks", ds.corpus().get(0).title());
    assertEquals("cards", ds.corpus().get(0).metadata().getString("topic"));
    assertEquals(6, ds.queries().size());
    // the header line is skipped; q1 has two graded judgments
    assertEquals(Map.of("d1", 2, "d8", 1), ds.qrels().get("q1"));
    assertEquals(5, ds.qrels().size());
    // q6 has no judgment and is not evaluated
    assertEquals(5, ds.judgedQueries().size());
    assertTrue(ds.judgedQueries().stream().noneMatch(q -> q.id().equals("q6")));
  }

  @Test
  void numericIdsAndMissingMetadata(@TempDir Path dir) throws IOException {
    Path corpus = Files.writeString(dir.resolve("c.jsonl"), "{\"_id\": 42, \"title\": \"t\", \"text\": \"x\"}\n\n");
    BeirDataset.CorpusDoc doc = BeirLoader.readCorpus(corpus).get(0);
    assertEquals("42", doc.id());
    assertTrue(doc.metadata().isEmpty());
  }

  @Test
  void malformedInputNamesFileAndLine(@TempDir Path dir) throws IOException {
    Path badJson = Files.writeString(dir.resolve("q.jsonl"), "{\"_id\": \"a\", \"text\": \"ok\"}\nnot json\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BeirLoader.readQueries(badJson));
    assertTrue(e.getMessage().contains("q.jsonl:2"), e.getMessage());

    Path noId = Files.writeString(dir.resolve("c.jsonl"), "{\"title\": \"t\", \"text\": \"x\"}\n");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> BeirLoader.readCorpus(noId)).getMessage()
        .contains("_id"));

    Path badQrels = Files.writeString(dir.resolve("qrels.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\n");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> BeirLoader.readQrels(badQrels)).getMessage()
        .contains("qrels.tsv:2"));

    Path badScore = Files.writeString(dir.resolve("s.tsv"), "q1\td1\thigh\n");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> BeirLoader.readQrels(badScore)).getMessage()
        .contains("not a number"));
  }
}
