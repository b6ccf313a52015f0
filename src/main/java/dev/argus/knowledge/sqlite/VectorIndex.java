package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
  private long[] ids = new long[0];
  private DocInfo[] owners = new DocInfo[0];
  private int size;
  private final Map<Long, Integer> positions = new HashMap<>();
  private final Map<String, long[]> rowsByDocument = new HashMap<>();

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
        ids[size] = r.chunkId();
        owners[size] = doc;
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
      ids[size] = row.chunkId();
      owners[size] = doc;
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
      ids = new long[0];
      owners = new DocInfo[0];
      size = 0;
      positions.clear();
      rowsByDocument.clear();
    } finally {
      lock.writeLock().unlock();
    }
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
        ids[pos] = ids[last];
        owners[pos] = owners[last];
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
    ids = Arrays.copyOf(ids, capacity);
    owners = Arrays.copyOf(owners, capacity);
  }

  /**
   * The {@code k} rows most similar to {@code query} (unit length) among those whose document passes the
   * filter, best first. The filter is applied during the scan, so a selective filter still yields k hits
   * when k exist.
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
      boolean filtered = filter != null && !filter.isEmpty();
      Map<DocInfo, Boolean> passes = filtered ? new IdentityHashMap<>() : null;
      TopK top = new TopK(k);
      for (int row = 0, offset = 0; row < size; row++, offset += dim) {
        if (filtered) {
          DocInfo owner = owners[row];
          Boolean ok = passes.get(owner);
          if (ok == null) {
            ok = MetadataFilters.matches(filter, owner.namespace(), owner.metadata());
            passes.put(owner, ok);
          }
          if (!ok) {
            continue;
          }
        }
        float score = dot.dot(data, offset, query, dim);
        top.offer(row, score);
      }
      int[] rows = top.rowsBestFirst();
      float[] scores = top.scoresBestFirst();
      List<Hit> hits = new ArrayList<>(rows.length);
      for (int i = 0; i < rows.length; i++) {
        hits.add(new Hit(ids[rows[i]], scores[i]));
      }
      return hits;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A bounded min-heap of (score, row): the root is the worst of the best k seen so far. */
  static final class TopK {
    private final int k;
    private final float[] scores;
    private final int[] rows;
    private int n;

    TopK(int k) {
      this.k = k;
      this.scores = new float[k];
      this.rows = new int[k];
    }

    void offer(int row, float score) {
      if (n < k) {
        scores[n] = score;
        rows[n] = row;
        siftUp(n++);
      } else if (score > scores[0]) {
        scores[0] = score;
        rows[0] = row;
        siftDown(0);
      }
    }

    private void siftUp(int i) {
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (scores[i] >= scores[parent]) {
          return;
        }
        swap(i, parent);
        i = parent;
      }
    }

    private void siftDown(int i) {
      while (true) {
        int l = 2 * i + 1;
        int r = l + 1;
        int min = i;
        if (l < n && scores[l] < scores[min]) {
          min = l;
        }
        if (r < n && scores[r] < scores[min]) {
          min = r;
        }
        if (min == i) {
          return;
        }
        swap(i, min);
        i = min;
      }
    }

    private void swap(int a, int b) {
      float s = scores[a];
      scores[a] = scores[b];
      scores[b] = s;
      int r = rows[a];
      rows[a] = rows[b];
      rows[b] = r;
    }

    private Integer[] order() {
      Integer[] idx = new Integer[n];
      for (int i = 0; i < n; i++) {
        idx[i] = i;
      }
      Arrays.sort(idx, (a, b) -> Float.compare(scores[b], scores[a]));
      return idx;
    }

    int[] rowsBestFirst() {
      Integer[] idx = order();
      int[] out = new int[n];
      for (int i = 0; i < n; i++) {
        out[i] = rows[idx[i]];
      }
      return out;
    }

    float[] scoresBestFirst() {
      Integer[] idx = order();
      float[] out = new float[n];
      for (int i = 0; i < n; i++) {
        out[i] = scores[idx[i]];
      }
      return out;
    }
  }
}
