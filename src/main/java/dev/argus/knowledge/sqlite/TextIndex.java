package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.SearchFilter;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded store's keyword and trigram legs: an in-memory Lucene index of every chunk (stemmed words of the
 * title and text, and 3-character grams of both; see {@link TextAnalysis}), derived from the SQLite tables
 * like {@link VectorIndex}: built at open, changed after each committed write, rebuilt at the next open after a
 * crash. Ranking is BM25 (k1 1.2, b 0.75) with block-max WAND, so a top-k search visits only the postings that
 * can still change the top k: a query of many common words costs about what a query of rare ones does, and the
 * work stays bounded as the store grows, with no term cut-off that would change the ranking. Filters apply inside
 * the search ({@link OwnerFilter}), before the top-k cut.
 *
 * <p>Thread-safe: writes go through Lucene's {@link IndexWriter} and become visible by a refresh, which the first
 * search after a change makes (so a search after a committed write sees it, and an ingestion without searches does
 * not reopen the reader after every document); searches hold a point-in-time searcher. Blocking CPU work:
 * call it off the event loop.
 */
final class TextIndex implements AutoCloseable {

  /**
   * How many times the title counts in the words field (FTS5's column weight 2 of the former keyword leg): a term's
   * frequency is {@code TITLE_COPIES x} its count in the title plus its count in the text, saturated together
   * (BM25F-like). On SciFact's 809 train queries (keyword leg alone, nDCG@10): title once 0.7039, twice 0.7075,
   * three times 0.7086; the title as a separate field whose BM25 is added, 0.6751.
   */
  static final int TITLE_COPIES = 2;
  /** How many trigrams of a long query take part in the trigram leg (the rarest that some chunk holds). */
  static final int TRIGRAMS_KEPT = 24;
  /** Minimum fraction of the kept trigrams a trigram hit must hold, so one common trigram makes no match. */
  static final double MIN_TRIGRAM_SHARE = 0.3;

  static final String CHUNK_ID = "cid";
  private static final String DOCUMENT_ID = "doc";
  private static final FieldType ANALYSED = new FieldType();

  static {
    ANALYSED.setTokenized(true);
    ANALYSED.setIndexOptions(IndexOptions.DOCS_AND_FREQS); // BM25 needs frequencies, no leg needs positions
    ANALYSED.freeze();
  }

  /** One chunk to index: its row id, its position in its document, its document's title, its text. */
  record Entry(long chunkId, int index, int total, String title, String text) {
  }

  /** What a hit needs of an indexed chunk besides its score: its document and the chunk itself. */
  record Held(VectorIndex.DocInfo owner, Entry chunk) {
  }

  record Hit(long chunkId, float score) {
  }

  private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
  private final IndexWriter writer;
  private final SearcherManager searchers;
  /**
   * Each indexed chunk with its document (namespace, metadata): for filters, and to build the hits of every leg
   * without a round trip to the database (the chunks' text is held in memory beside their vectors).
   */
  private final Map<Long, Held> held = new ConcurrentHashMap<>();
  private final Map<String, long[]> chunksByDocument = new ConcurrentHashMap<>();
  /** Counts the changes; {@link #visible} is the count the searchers reflect. */
  private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
  private volatile long visible;
  private final Object refreshing = new Object();

  TextIndex() {
    try {
      IndexWriterConfig config = new IndexWriterConfig(TextAnalysis.PER_FIELD)
          .setSimilarity(new BM25Similarity())
          .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
          .setCommitOnClose(false)
          .setRAMBufferSizeMB(32);
      writer = new IndexWriter(directory, config);
      searchers = new SearcherManager(writer, null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the in-memory text index", e);
    }
  }

  /** Adds a document's chunks without making them visible yet (loading at open; {@link #refresh()} at the end). */
  void add(VectorIndex.DocInfo doc, List<Entry> entries) {
    try {
      List<List<IndexableField>> docs = new ArrayList<>(entries.size());
      long[] ids = new long[entries.size()];
      for (int i = 0; i < entries.size(); i++) {
        Entry e = entries.get(i);
        docs.add(fields(doc.id(), e));
        ids[i] = e.chunkId();
        held.put(e.chunkId(), new Held(doc, e));
      }
      writer.addDocuments(docs);
      chunksByDocument.merge(doc.id(), ids, TextIndex::concat);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot index document " + doc.id(), e);
    }
  }

  /** Replaces the document's chunks (if any) by {@code entries}; the next search sees the change. */
  void put(VectorIndex.DocInfo doc, List<Entry> entries) {
    removeQuietly(doc.id());
    add(doc, entries);
    changes.incrementAndGet();
  }

  /** Removes the document's chunks; the next search sees the change. */
  void remove(String documentId) {
    removeQuietly(documentId);
    changes.incrementAndGet();
  }

  private void removeQuietly(String documentId) {
    try {
      writer.deleteDocuments(new Term(DOCUMENT_ID, documentId));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove document " + documentId + " from the text index", e);
    }
    long[] ids = chunksByDocument.remove(documentId);
    if (ids != null) {
      for (long id : ids) {
        held.remove(id);
      }
    }
  }

  /** Makes every change so far visible to searches. */
  void refresh() {
    try {
      searchers.maybeRefreshBlocking();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot refresh the text index", e);
    }
  }

  int size() {
    return held.size();
  }

  /** The indexed chunk with this row id, or null (deleted since a search found it). */
  Held chunk(long chunkId) {
    return held.get(chunkId);
  }

  /**
   * Keyword leg: BM25 of each stem over the words field (the title {@link #TITLE_COPIES} times and the chunk text),
   * summed over the stems a chunk holds (OR semantics); the best {@code k}.
   */
  List<Hit> keyword(List<String> stems, int k, SearchFilter filter) {
    if (stems.isEmpty() || k <= 0) {
      return List.of();
    }
    BooleanQuery.Builder q = new BooleanQuery.Builder();
    for (String s : stems) {
      q.add(new TermQuery(new Term(TextAnalysis.WORDS, s)), BooleanClause.Occur.SHOULD);
    }
    return search(q.build(), k, filter);
  }

  /**
   * Trigram leg: the {@link #TRIGRAMS_KEPT} rarest of {@code grams} that some chunk holds, OR-ed and ranked by BM25;
   * a hit must hold at least {@link #MIN_TRIGRAM_SHARE} of the query's trigrams (of a long query, of the kept ones).
   */
  List<Hit> trigram(List<String> grams, int k, SearchFilter filter) {
    if (grams.isEmpty() || k <= 0) {
      return List.of();
    }
    IndexSearcher searcher = acquire();
    try {
      IndexReader reader = searcher.getIndexReader();
      Map<Term, Integer> df = new java.util.LinkedHashMap<>();
      for (String g : grams) {
        Term t = new Term(TextAnalysis.TRIGRAMS, TextAnalysis.trigram(g));
        df.computeIfAbsent(t, term -> docFreq(reader, term));
      }
      List<Term> present = new ArrayList<>(df.keySet().stream().filter(t -> df.get(t) > 0).toList());
      if (present.isEmpty()) {
        return List.of();
      }
      present.sort(Comparator.comparingInt(df::get));
      List<Term> kept = present.subList(0, Math.min(TRIGRAMS_KEPT, present.size()));
      // A short query's trigrams all count (one that no chunk holds is one a hit misses); of a long one, the kept.
      int counted = df.size() <= TRIGRAMS_KEPT ? df.size() : kept.size();
      int needed = (int) Math.ceil(MIN_TRIGRAM_SHARE * counted);
      if (needed > kept.size()) {
        return List.of();
      }
      BooleanQuery.Builder q = new BooleanQuery.Builder();
      for (Term t : kept) {
        q.add(new TermQuery(t), BooleanClause.Occur.SHOULD);
      }
      q.setMinimumNumberShouldMatch(needed);
      return search(searcher, q.build(), k, filter);
    } catch (IOException e) {
      throw new UncheckedIOException("trigram search failed", e);
    } finally {
      release(searcher);
    }
  }

  private static int docFreq(IndexReader reader, Term term) {
    try {
      return reader.docFreq(term);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<Hit> search(Query query, int k, SearchFilter filter) {
    IndexSearcher searcher = acquire();
    try {
      return search(searcher, query, k, filter);
    } catch (IOException e) {
      throw new UncheckedIOException("keyword search failed", e);
    } finally {
      release(searcher);
    }
  }

  private List<Hit> search(IndexSearcher searcher, Query query, int k, SearchFilter filter) throws IOException {
    Query q = query;
    if (filter != null && !filter.isEmpty()) {
      q = new BooleanQuery.Builder()
          .add(query, BooleanClause.Occur.MUST)
          .add(new OwnerFilter(held, filter), BooleanClause.Occur.FILTER)
          .build();
    }
    // Count hits only as far as the top k needs, so that block-max WAND can skip the rest.
    TopDocs top = searcher.search(q, new TopScoreDocCollectorManager(k, null, k));
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    List<Hit> hits = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(sd.doc, leaves));
      NumericDocValues ids = DocValues.getNumeric(leaf.reader(), CHUNK_ID);
      if (ids.advanceExact(sd.doc - leaf.docBase)) {
        hits.add(new Hit(ids.longValue(), sd.score));
      }
    }
    return hits;
  }

  /**
   * A point-in-time searcher that sees every change made before this call: after writes, the first search reopens
   * the reader (a bulk ingestion without searches never pays for reopening after each document).
   */
  private IndexSearcher acquire() {
    long wanted = changes.get();
    if (visible < wanted) {
      // One refresh at a time; a search that arrives meanwhile waits for it rather than use the older reader.
      synchronized (refreshing) {
        if (visible < wanted) {
          refresh();
          visible = wanted;
        }
      }
    }
    try {
      IndexSearcher searcher = searchers.acquire();
      searcher.setQueryCache(null); // every query is new; caching its clauses only costs
      return searcher;
    } catch (IOException e) {
      throw new UncheckedIOException("the text index is closed", e);
    }
  }

  private void release(IndexSearcher searcher) {
    try {
      searchers.release(searcher);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<IndexableField> fields(String documentId, Entry e) {
    String title = e.title() == null ? "" : e.title();
    String text = e.text() == null ? "" : e.text();
    return List.of(
        new StringField(DOCUMENT_ID, documentId, Field.Store.NO),
        new NumericDocValuesField(CHUNK_ID, e.chunkId()),
        new Field(TextAnalysis.WORDS, (title + "\n").repeat(TITLE_COPIES) + text, ANALYSED),
        new Field(TextAnalysis.TRIGRAMS, title + "\n" + text, ANALYSED));
  }

  private static long[] concat(long[] a, long[] b) {
    long[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Drops every chunk (the store is closing). */
  void clear() {
    try {
      writer.deleteAll();
      held.clear();
      chunksByDocument.clear();
      refresh();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      searchers.close();
      writer.close();
      directory.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
