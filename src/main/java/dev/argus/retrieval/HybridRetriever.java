package dev.argus.retrieval;

import dev.argus.common.ApiException;
import dev.argus.config.RetrievalConf;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Hybrid retrieval over a {@link KnowledgeStore}, in stages:
 * <ol>
 *   <li>check the namespace (400 {@code unknown_namespace}) and run the self-query step; explicit request
 *       filters win over inferred ones on the same key;</li>
 *   <li>run the selected retrievers concurrently, each asked for {@code max(topK, retrieval.candidates)} hits
 *       (with MMR at least 3 x topK, with {@code collapse: "document"} at least 2 x topK) with the filter applied
 *       inside it (the vector leg first embeds the query);</li>
 *   <li>fuse (RRF or weighted; a single retriever's ranking is returned unchanged), move the documents that carry
 *       an identifier of the query first ({@link ExactIdentifiers}), optionally keep each document's best chunk
 *       only ({@link Collapse}), optionally re-order by MMR, cut to top-k;</li>
 *   <li>if filters read from the query (not the request's own) leave nothing, search again without them, with
 *       the query as written ({@code filters.relaxed: true}); a filter on a metadata field that no document has
 *       matches nothing, so the search it would take is skipped;</li>
 *   <li>optionally expand each hit with its parent document or its neighbouring chunks.</li>
 * </ol>
 * Every stage is timed. The whole search fails with a timeout after {@code retrieval.timeoutMs}. Plain Java
 * over futures: safe to call from any verticle; it never blocks.
 */
public final class HybridRetriever {

  /** With MMR, each retriever returns at least this many times top-k candidates. */
  public static final int MMR_POOL_FACTOR = 3;
  /** With {@code collapse: "document"} each retriever is asked for at least this many times top-k hits. */
  public static final int COLLAPSE_POOL_FACTOR = 2;

  private final KnowledgeStore store;
  private final Embedder embedder;
  private final RetrievalConf conf;
  private final SelfQuery selfQuery;
  private final Map<Retriever, Double> weights;
  private final KnowledgeShape shape;

  public HybridRetriever(KnowledgeStore store, Embedder embedder, RetrievalConf conf, SelfQuery selfQuery) {
    this.store = store;
    this.embedder = embedder;
    this.conf = conf;
    this.selfQuery = selfQuery;
    this.shape = new KnowledgeShape(store);
    Map<Retriever, Double> w = new EnumMap<>(Retriever.class);
    w.put(Retriever.VECTOR, conf.vectorWeight());
    w.put(Retriever.KEYWORD, conf.keywordWeight());
    w.put(Retriever.TRIGRAM, conf.trigramWeight());
    this.weights = Map.copyOf(w);
  }

  /** With the rule-based self-query configured by {@code retrieval.selfQueryKeys} and {@code selfQueryDateKey}. */
  public static HybridRetriever create(KnowledgeStore store, Embedder embedder, RetrievalConf conf) {
    return new HybridRetriever(store, embedder, conf, new RuleBasedSelfQuery(conf.selfQueryKeys(), conf.selfQueryDateKey()));
  }

  public Future<SearchResponse> search(SearchRequest request) {
    long start = System.nanoTime();
    return shape.namespaces()
        .compose(known -> {
          if (request.namespace() != null && request.allowedNamespaces() != null
              && !request.allowedNamespaces().contains(request.namespace())) {
            return Future.failedFuture(new ApiException(403, "namespace_forbidden",
                "this key may not read namespace '" + request.namespace() + "'"));
          }
          if (request.namespace() != null && !known.contains(request.namespace())) {
            return Future.failedFuture(ApiException.badRequest("unknown_namespace",
                "unknown namespace '" + request.namespace() + "'"));
          }
          long sq = System.nanoTime();
          Future<SelfQueryResult> inferred = request.selfQuery()
              ? selfQuery.extract(request.query(), known).otherwise(err -> SelfQueryResult.none(request.query()))
              : Future.succeededFuture(SelfQueryResult.none(request.query()));
          return inferred.compose(r -> run(request, r, start, Timings.ms(sq, System.nanoTime())));
        })
        .timeout(conf.timeoutMs(), TimeUnit.MILLISECONDS);
  }

  /**
   * A document was written or deleted: a namespace or a metadata field may have appeared or disappeared (both are
   * read once and kept between changes, see {@link KnowledgeShape}).
   */
  public void knowledgeChanged() {
    shape.forget();
  }

  /** Explicit filters of the request win over inferred ones on the same key; the losers are marked not applied. */
  static AppliedFilters merge(SearchRequest request, SelfQueryResult inferred) {
    String namespace = request.namespace();
    Set<String> explicitKeys = new HashSet<>();
    request.conditions().forEach(c -> explicitKeys.add(c.key()));
    List<MetadataCondition> conditions = new ArrayList<>(request.conditions());
    List<InferredFilter> reported = new ArrayList<>();
    for (InferredFilter f : inferred.filters()) {
      if (f.namespace() != null) {
        if (namespace == null) {
          namespace = f.namespace();
          reported.add(f);
        } else {
          reported.add(f.namespace().equals(namespace) && request.namespace() == null ? f : f.overridden());
        }
      } else if (explicitKeys.contains(f.condition().key())) {
        reported.add(f.overridden());
      } else {
        conditions.add(f.condition());
        reported.add(f);
      }
    }
    return new AppliedFilters(namespace, conditions, reported, false);
  }

  private Future<SearchResponse> run(SearchRequest request, SelfQueryResult inferred, long start, double selfQueryMs) {
    AppliedFilters applied = merge(request, inferred);
    String text = inferred.cleanedQuery();
    double[] ms = new double[4]; // embed, vector, keyword, trigram
    return missingFields(applied.conditions()).compose(missing ->
        retrieveUnless(missing, request, text, applied.toSearchFilter(), ms).compose(fused -> {
          if (fused.isEmpty() && applied.anyInferredApplied()) {
            // The filters read from the query matched nothing (e.g. "in 2001" over a corpus without dates): search
            // again with the request's own filters and the query as written, and say so.
            return retrieveUnless(missing, request, request.query(), request.filter(), ms)
                .compose(relaxed -> finish(request, request.query(), applied.relaxed(request), relaxed, ms, start,
                    selfQueryMs));
          }
          return finish(request, text, applied, fused, ms, start, selfQueryMs);
        }));
  }

  /**
   * The top-level fields among {@code conditions} that no document has. A check that fails counts the field as
   * present: the search then runs as it would without the check.
   */
  private Future<Set<String>> missingFields(List<MetadataCondition> conditions) {
    Map<String, Future<Boolean>> present = new HashMap<>();
    for (MetadataCondition c : conditions) {
      String field = KnowledgeShape.field(c.key());
      present.computeIfAbsent(field, f -> shape.hasMetadataKey(f).otherwise(true));
    }
    if (present.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    return Future.all(new ArrayList<>(present.values())).map(all -> {
      Set<String> missing = new HashSet<>();
      present.forEach((field, p) -> {
        if (!p.result()) {
          missing.add(field);
        }
      });
      return missing;
    });
  }

  /**
   * {@link #retrieve}, unless a condition of {@code filter} names a field in {@code missing}: every condition is
   * positive (equal to, in, a range), so such a filter matches nothing and the answer is empty without searching
   * (on PostgreSQL a filtered vector scan that finds nothing exhausts the index and then scans the table: hundreds
   * of milliseconds at 100,000 chunks).
   */
  private Future<List<FusedHit>> retrieveUnless(Set<String> missing, SearchRequest request, String text,
                                                SearchFilter filter, double[] ms) {
    boolean matchesNothing = filter.conditions().stream().anyMatch(c -> missing.contains(KnowledgeShape.field(c.key())));
    return matchesNothing ? Future.succeededFuture(List.of()) : retrieve(request, text, filter, ms);
  }

  /** Runs the selected retrievers concurrently and fuses their rankings. */
  private Future<List<FusedHit>> retrieve(SearchRequest request, String text, SearchFilter unlimited, double[] ms) {
    int n = candidates(request);
    SearchFilter filter = unlimited.limitedTo(request.allowedSet()); // every leg, whatever the filter says
    Map<Retriever, Future<List<ScoredChunk>>> legs = new EnumMap<>(Retriever.class);
    for (Retriever r : request.retrievers()) {
      legs.put(r, switch (r) {
        case VECTOR -> timed(() -> embedder.embedQuery(text), ms, 0)
            .compose(vector -> timed(() -> store.vectorSearch(vector, n, filter), ms, 1));
        case KEYWORD -> timed(() -> store.keywordSearch(text, n, filter), ms, 2);
        case TRIGRAM -> timed(() -> store.trigramSearch(request.singleMode() ? text : TrigramPolicy.trigramText(text),
            n, filter), ms, 3);
      });
    }
    return Future.all(new ArrayList<>(legs.values())).map(all -> {
      Map<Retriever, List<ScoredChunk>> rankings = new EnumMap<>(Retriever.class);
      legs.forEach((r, f) -> rankings.put(r, f.result()));
      return fuse(request, text, rankings);
    });
  }

  /** MMR or the top-k cut, expansion, timings. */
  private Future<SearchResponse> finish(SearchRequest request, String text, AppliedFilters applied,
                                        List<FusedHit> fused, double[] ms, long start, double selfQueryMs) {
    long fusionStart = System.nanoTime();
    List<FusedHit> kept = request.collapse() == Collapse.DOCUMENT ? bestChunkPerDocument(fused) : fused;
    List<FusedHit> top = request.mmr()
        ? Mmr.rerank(kept, request.topK(), conf.mmrLambda())
        : kept.subList(0, Math.min(request.topK(), kept.size()));
    List<SearchResult> results = new ArrayList<>(top.size());
    top.forEach(h -> results.add(SearchResult.of(h)));
    double fusionMs = Timings.ms(fusionStart, System.nanoTime());
    long expandStart = System.nanoTime();
    return expand(request.expand(), results).map(expanded -> new SearchResponse(request.query(), text, expanded,
        new Timings(selfQueryMs, ms[0], ms[1], ms[2], ms[3], fusionMs, Timings.ms(expandStart, System.nanoTime()),
            Timings.ms(start, System.nanoTime())), applied, false));
  }

  /**
   * How many hits each retriever is asked for: {@code max(topK, retrieval.candidates)}; with MMR at least
   * {@value #MMR_POOL_FACTOR} times top-k, so that MMR has something to choose from, and with
   * {@code collapse: "document"} at least {@value #COLLAPSE_POOL_FACTOR} times top-k, so that k documents remain
   * when some have several chunks among the hits.
   */
  static int candidates(SearchRequest request, int configured) {
    int factor = Math.max(request.mmr() ? MMR_POOL_FACTOR : 1,
        request.collapse() == Collapse.DOCUMENT ? COLLAPSE_POOL_FACTOR : 1);
    return Math.max(request.topK() * factor, configured);
  }

  /** The fused ranking with each document once, at the place (and with the chunk) of its best-ranked hit. */
  static List<FusedHit> bestChunkPerDocument(List<FusedHit> fused) {
    Set<String> seen = new HashSet<>();
    List<FusedHit> out = new ArrayList<>(fused.size());
    for (FusedHit hit : fused) {
      if (seen.add(hit.chunk().documentId())) {
        out.add(hit);
      }
    }
    return out;
  }

  private int candidates(SearchRequest request) {
    return candidates(request, conf.candidates());
  }

  /** One retriever's ranking unchanged; several fused, then documents carrying the query's identifiers first. */
  private List<FusedHit> fuse(SearchRequest request, String text, Map<Retriever, List<ScoredChunk>> rankings) {
    if (request.singleMode()) {
      Retriever only = request.retrievers().get(0);
      return Fusion.single(only, rankings.get(only));
    }
    List<FusedHit> fused = request.fusion() == FusionMode.WEIGHTED
        ? Fusion.weighted(rankings, weights)
        : Fusion.reciprocalRank(rankings, conf.rrfK());
    return ExactIdentifiers.promote(text, fused);
  }

  private Future<List<SearchResult>> expand(Expansion expansion, List<SearchResult> results) {
    return switch (expansion) {
      case NONE -> Future.succeededFuture(results);
      case PARENT -> withParents(results);
      case NEIGHBOURS -> withNeighbours(results);
    };
  }

  private Future<List<SearchResult>> withParents(List<SearchResult> results) {
    Map<String, Future<Optional<Document>>> docs = new HashMap<>();
    for (SearchResult r : results) {
      docs.computeIfAbsent(r.documentId(), store::document);
    }
    return Future.all(new ArrayList<>(docs.values())).map(all -> {
      List<SearchResult> out = new ArrayList<>(results.size());
      for (SearchResult r : results) {
        Optional<Document> doc = docs.get(r.documentId()).result();
        out.add(doc.map(r::withParent).orElse(r));
      }
      return out;
    });
  }

  private Future<List<SearchResult>> withNeighbours(List<SearchResult> results) {
    List<Future<List<Chunk>>> chunks = new ArrayList<>(results.size());
    for (SearchResult r : results) {
      chunks.add(store.chunks(r.documentId(), Math.max(0, r.chunkIndex() - 1), r.chunkIndex() + 1));
    }
    return Future.all(chunks).map(all -> {
      List<SearchResult> out = new ArrayList<>(results.size());
      for (int i = 0; i < results.size(); i++) {
        SearchResult r = results.get(i);
        out.add(r.withNeighbours(chunks.get(i).result().stream().filter(c -> c.index() != r.chunkIndex()).toList()));
      }
      return out;
    });
  }

  private static <T> Future<T> timed(Supplier<Future<T>> stage, double[] slots, int slot) {
    long t = System.nanoTime();
    return stage.get().onSuccess(v -> slots[slot] = Timings.ms(t, System.nanoTime()));
  }
}
