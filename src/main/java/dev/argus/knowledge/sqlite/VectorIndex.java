package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The in-process copy of the store's vectors: one contiguous row-major {@code float[]}, the chunk row id of
 * each row and the owning document's namespace and metadata (for filtering inside the scan). Exact search:
 * dot products (vectors are unit length, so this is cosine similarity) and a bounded min-heap for the top k.
 * Thread-safe: scans share a read lock, changes take the write lock. Removal moves the last row into the hole,
 * so the matrix stays dense. All methods are blocking/CPU work: call them off the event loop.
 */
final class VectorIndex {

  /** What the scan needs of a document to apply a {@link SearchFilter}. */
  record DocInfo(String id, String namespace, JsonObject metadata) {
  }

  /** One vector of one chunk (row id in the chunks table). */
  record Row(long chunkId, float[] vector) {
  }

  record Hit(long chunkId, float score) {
  }

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final DotProduct dot;
  private int dim;
  private float[] data = new float[0];
  private final Int8Rows int8 = new Int8Rows();
  private long[] ids = new long[0];
  private DocInfo[] owners = new DocInfo[0];
  /** Each row's namespace as a number (an index into {@link #namespaceNames}): the scan's filter tests ints. */
  private int[] namespaceIds = new int[0];
  private final List<String> namespaceNames = new ArrayList<>();
  private final Map<String, Integer> namespaceNumbers = new HashMap<>();
  private int size;
  private final Map<Long, Integer> positions = new HashMap<>();
  private final Map<String, long[]> rowsByDocument = new HashMap<>();
  private final AtomicLong fullScans = new AtomicLong();

  VectorIndex(DotProduct dot) {
    this.dot = dot;
  }

  String kernel() {
    return dot.name();
  }

  int size() {
    lock.readLock().lock();
    try {
      return size;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The dimension of the vectors held, or 0 while empty and never set. */
  int dimension() {
    lock.readLock().lock();
    try {
      return dim;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Replaces the document's rows (if any) by {@code rows}. */
  void put(DocInfo doc, List<Row> rows) {
    lock.writeLock().lock();
    try {
      removeLocked(doc.id());
      if (rows.isEmpty()) {
        return;
      }
      if (dim == 0) {
        dim = rows.get(0).vector().length;
      }
      for (Row r : rows) {
        if (r.vector().length != dim) {
          throw new IllegalArgumentException("vector of dimension " + r.vector().length + " in an index of dimension " + dim);
        }
      }
      ensureCapacity(size + rows.size());
      long[] chunkIds = new long[rows.size()];
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i);
        System.arraycopy(r.vector(), 0, data, size * dim, dim);
        int8.set(size, data, size * dim, dim);
        ids[size] = r.chunkId();
        owners[size] = doc;
      namespaceIds[size] = namespaceNumber(doc.namespace());
        namespaceIds[size] = namespaceNumber(doc.namespace());
        positions.put(r.chunkId(), size);
        chunkIds[i] = r.chunkId();
        size++;
      }
      rowsByDocument.put(doc.id(), chunkIds);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Adds one row of a document (used while loading the store at open; rows of a document may arrive apart). */
  void append(DocInfo doc, Row row) {
    lock.writeLock().lock();
    try {
      if (dim == 0) {
        dim = row.vector().length;
      }
      if (row.vector().length != dim) {
        throw new IllegalArgumentException("vector of dimension " + row.vector().length + " in an index of dimension " + dim);
      }
      ensureCapacity(size + 1);
      System.arraycopy(row.vector(), 0, data, size * dim, dim);
      int8.set(size, data, size * dim, dim);
      ids[size] = row.chunkId();
      owners[size] = doc;
      namespaceIds[size] = namespaceNumber(doc.namespace());
      positions.put(row.chunkId(), size);
      size++;
      long[] old = rowsByDocument.get(doc.id());
      long[] grown = old == null ? new long[1] : Arrays.copyOf(old, old.length + 1);
      grown[grown.length - 1] = row.chunkId();
      rowsByDocument.put(doc.id(), grown);
    } finally {
      lock.writeLock().unlock();
    }
  }

  void remove(String documentId) {
    lock.writeLock().lock();
    try {
      removeLocked(documentId);
    } finally {
      lock.writeLock().unlock();
    }
  }

  void clear() {
    lock.writeLock().lock();
    try {
      data = new float[0];
      int8.clear();
      ids = new long[0];
      owners = new DocInfo[0];
      namespaceIds = new int[0];
      namespaceNames.clear();
      namespaceNumbers.clear();
      size = 0;
      positions.clear();
      rowsByDocument.clear();
    } finally {
      lock.writeLock().unlock();
    }
  }

  private int namespaceNumber(String namespace) {
    return namespaceNumbers.computeIfAbsent(namespace, ns -> {
      namespaceNames.add(ns);
      return namespaceNames.size() - 1;
    });
  }

  private void removeLocked(String documentId) {
    long[] chunkIds = rowsByDocument.remove(documentId);
    if (chunkIds == null) {
      return;
    }
    for (long chunkId : chunkIds) {
      Integer pos = positions.remove(chunkId);
      if (pos == null) {
        continue;
      }
      int last = size - 1;
      if (pos != last) {
        System.arraycopy(data, last * dim, data, pos * dim, dim);
        int8.move(last, pos, dim);
        ids[pos] = ids[last];
        owners[pos] = owners[last];
        namespaceIds[pos] = namespaceIds[last];
        positions.put(ids[pos], pos);
      }
      owners[last] = null;
      size--;
    }
  }

  private void ensureCapacity(int rows) {
    if (rows <= ids.length) {
      return;
    }
    int capacity = Math.max(rows, Math.max(64, ids.length + (ids.length >> 1)));
    data = Arrays.copyOf(data, capacity * dim);
    int8.ensureCapacity(capacity, dim);
    ids = Arrays.copyOf(ids, capacity);
    owners = Arrays.copyOf(owners, capacity);
    namespaceIds = Arrays.copyOf(namespaceIds, capacity);
  }

  /**
   * The {@code k} rows most similar to {@code query} (unit length) among those whose document passes the
   * filter, best first: exactly the rows and scores of a scan of the whole float matrix. The filter is applied
   * during the scan, so a selective filter still yields k hits when k exist.
   *
   * <p>On an index larger than the shortlist (4k + 64 rows), the scan reads the int8 copy ({@link Int8Rows}, a
   * quarter of the memory: the full scan is bound by memory bandwidth, not arithmetic), keeps the shortlist of the
   * best int8 scores and scores those rows again on the floats. That is exact by proof, not by chance: every row
   * left off the shortlist could score at most its int8 score plus its own error bound, and when the highest of
   * those is below the k-th exact score, no row outside could have entered the top k; otherwise the whole float
   * matrix is scanned ({@link #fullScans()} counts it).
   */
  List<Hit> search(float[] query, int k, SearchFilter filter) {
    lock.readLock().lock();
    try {
      if (size == 0 || k <= 0) {
        return List.of();
      }
      if (query.length != dim) {
        throw new IllegalArgumentException("query vector has dimension " + query.length + " but the store holds "
            + dim + "-dimensional vectors");
      }
      RowFilter passes = new RowFilter(filter, namespaceNames, namespaceIds);
      int shortlist = 4 * k + 64;
      TopK top = shortlist >= size ? exactScan(query, k, passes) : shortlisted(query, k, shortlist, passes);
      TopK.Ranked ranked = top.bestFirst();
      List<Hit> hits = new ArrayList<>(ranked.rows().length);
      for (int i = 0; i < ranked.rows().length; i++) {
        hits.add(new Hit(ids[ranked.rows()[i]], ranked.scores()[i]));
      }
      return hits;
    } finally {
      lock.readLock().unlock();
    }
  }

  private TopK exactScan(float[] query, int k, RowFilter passes) {
    TopK top = new TopK(k);
    for (int row = 0, offset = 0; row < size; row++, offset += dim) {
      if (passes.test(row, owners[row])) {
        top.offer(row, dot.dot(data, offset, query, dim));
      }
    }
    return top;
  }

  private TopK shortlisted(float[] query, int k, int shortlist, RowFilter passes) {
    TopK approximate = new TopK(shortlist);
    byte[] codes = int8.codes();
    float norm = Vectors.norm(query);
    float outside = Float.NEGATIVE_INFINITY; // the most a row left off the shortlist can score exactly
    for (int row = 0, offset = 0; row < size; row++, offset += dim) {
      if (!passes.test(row, owners[row])) {
        continue;
      }
      float score = int8.scale(row) * dot.dot(codes, offset, query, dim);
      if (approximate.full()) { // this offer leaves one row off the shortlist: this one or the root it evicts
        boolean evicts = score > approximate.worst();
        int leftOut = evicts ? approximate.root() : row;
        float leftOutScore = evicts ? approximate.worst() : score;
        outside = Math.max(outside, leftOutScore + int8.errorBound(leftOut, norm));
      }
      approximate.offer(row, score);
    }
    TopK top = new TopK(k);
    for (int row : approximate.rowsInScanOrder()) { // scan order: equal scores resolve as in a full scan
      top.offer(row, dot.dot(data, row * dim, query, dim));
    }
    if (top.full() && outside >= top.worst()) {
      fullScans.incrementAndGet();
      return exactScan(query, k, passes);
    }
    return top;
  }

  /** How many shortlisted searches could not prove their result and scanned the float matrix (diagnostics). */
  long fullScans() {
    return fullScans.get();
  }

  /**
   * The filter as the scan applies it: the namespace conditions once per namespace (a row's namespace is a number),
   * the metadata conditions once per document, remembered by identity (a document's rows usually lie together, so
   * the last document's answer is kept at hand).
   */
  private static final class RowFilter {
    private final SearchFilter filter;
    private final boolean[] namespacePasses;
    private final int[] namespaceIds;
    private final Map<DocInfo, Boolean> seen;
    private DocInfo last;
    private boolean lastPasses;

    RowFilter(SearchFilter filter, List<String> namespaces, int[] namespaceIds) {
      this.filter = filter != null && !filter.isEmpty() ? filter : null;
      this.namespaceIds = namespaceIds;
      this.namespacePasses = new boolean[namespaces.size()];
      for (int i = 0; i < namespacePasses.length; i++) {
        String ns = namespaces.get(i);
        namespacePasses[i] = this.filter == null
            || (this.filter.namespace() == null || this.filter.namespace().equals(ns)) && this.filter.allows(ns);
      }
      this.seen = this.filter == null || this.filter.conditions().isEmpty() ? null : new IdentityHashMap<>();
    }

    boolean test(int row, DocInfo owner) {
      if (!namespacePasses[namespaceIds[row]]) {
        return false;
      }
      if (seen == null) {
        return true;
      }
      if (owner != last) {
        last = owner;
        lastPasses = seen.computeIfAbsent(owner, o -> MetadataFilters.matches(filter, o.namespace(), o.metadata()));
      }
      return lastPasses;
    }
  }
}
