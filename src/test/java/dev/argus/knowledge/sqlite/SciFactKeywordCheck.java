package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Not a test: the keyword and trigram legs alone on a BEIR dataset (each abstract one chunk, title + text;
 * random vectors since no embedder is involved): nDCG@10 with binary relevance, queries that matched anything,
 * and per-leg latency. {@code ... SciFactKeywordCheck ../shared/datasets/scifact}
 */
public final class SciFactKeywordCheck {

  private SciFactKeywordCheck() {
  }

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "/work/shared/datasets/scifact");
    Vertx vertx = Vertx.vertx();
    Path dir = Files.createTempDirectory("argus-scifact-");
    Database db = await(Database.sqlite(vertx, dir.resolve("argus.db")));
    KnowledgeStore store = await(SqliteKnowledgeStore.open(db));
    SplittableRandom r = new SplittableRandom(1);
    long t0 = System.nanoTime();
    int docs = 0;
    for (String line : Files.readAllLines(data.resolve("corpus.jsonl"))) {
      JsonObject j = new JsonObject(line);
      String id = j.getString("_id");
      String text = j.getString("text");
      float[] v = new float[8];
      for (int i = 0; i < 8; i++) {
        v[i] = (float) r.nextGaussian();
      }
      await(store.upsert(new Document(id, "default", j.getString("title"), null, text, new JsonObject(), null, 0, null, null),
          List.of(new Chunk(id, 0, 1, text, v))));
      docs++;
    }
    System.out.printf("ingested %d abstracts in %.1f s%n", docs, (System.nanoTime() - t0) / 1e9);
    Map<String, Set<String>> qrels = new HashMap<>();
    for (String line : Files.readAllLines(data.resolve("qrels.tsv")).subList(1, Files.readAllLines(data.resolve("qrels.tsv")).size())) {
      String[] p = line.split("\t");
      if (Integer.parseInt(p[2]) > 0) {
        qrels.computeIfAbsent(p[0], k -> new HashSet<>()).add(p[1]);
      }
    }
    Map<String, String> queries = new HashMap<>();
    for (String line : Files.readAllLines(data.resolve("queries.jsonl"))) {
      JsonObject j = new JsonObject(line);
      if (qrels.containsKey(j.getString("_id"))) {
        queries.put(j.getString("_id"), j.getString("text"));
      }
    }
    for (String leg : List.of("keyword", "trigram")) {
      double ndcg = 0;
      int matched = 0;
      double[] ms = new double[queries.size()];
      int qi = 0;
      for (var q : queries.entrySet()) {
        long s = System.nanoTime();
        List<ScoredChunk> hits = await(leg.equals("keyword") ? store.keywordSearch(q.getValue(), 100, SearchFilter.NONE)
            : store.trigramSearch(q.getValue(), 100, SearchFilter.NONE));
        ms[qi++] = (System.nanoTime() - s) / 1e6;
        if (!hits.isEmpty()) {
          matched++;
        }
        List<String> ranked = new ArrayList<>(new LinkedHashSet<>(hits.stream().map(ScoredChunk::documentId).toList()));
        ndcg += ndcg10(ranked, qrels.get(q.getKey()));
      }
      Arrays.sort(ms);
      System.out.printf("%-8s nDCG@10 %.4f  matched %d/%d  p50 %.1f ms  p95 %.1f ms%n", leg, ndcg / queries.size(), matched,
          queries.size(), ms[ms.length / 2], ms[(int) (ms.length * 0.95)]);
    }
    await(store.close());
    await(db.close());
    await(vertx.close());
  }

  private static double ndcg10(List<String> ranked, Set<String> relevant) {
    double dcg = 0;
    for (int i = 0; i < Math.min(10, ranked.size()); i++) {
      if (relevant.contains(ranked.get(i))) {
        dcg += 1 / (Math.log(i + 2) / Math.log(2));
      }
    }
    double idcg = 0;
    for (int i = 0; i < Math.min(10, relevant.size()); i++) {
      idcg += 1 / (Math.log(i + 2) / Math.log(2));
    }
    return dcg / idcg;
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
