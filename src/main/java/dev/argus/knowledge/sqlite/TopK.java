package dev.argus.knowledge.sqlite;

import java.util.Arrays;

/**
 * A bounded min-heap of (score, row) for the vector scan: the root is the worst of the best k seen so far. A score
 * replaces the root only when strictly greater, so among equal scores the row offered first stays (scan order).
 */
final class TopK {

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

  /** Whether k rows are held (a row that scores no more than {@link #worst()} is then left out). */
  boolean full() {
    return n == k;
  }

  /** The row of the lowest score held, the one the next better offer replaces (meaningful once {@link #full()}). */
  int root() {
    return rows[0];
  }

  /** The lowest score held (meaningful once {@link #full()}). */
  float worst() {
    return scores[0];
  }

  /** The rows held, in ascending row order: the order a scan of the whole matrix would meet them. */
  int[] rowsInScanOrder() {
    int[] out = Arrays.copyOf(rows, n);
    Arrays.sort(out);
    return out;
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

  /** The rows held and their scores, best first. */
  record Ranked(int[] rows, float[] scores) {
  }

  Ranked bestFirst() {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Float.compare(scores[b], scores[a]));
    int[] bestRows = new int[n];
    float[] bestScores = new float[n];
    for (int i = 0; i < n; i++) {
      bestRows[i] = rows[order[i]];
      bestScores[i] = scores[order[i]];
    }
    return new Ranked(bestRows, bestScores);
  }
}
