package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.SearchFilter;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A filter clause of the text index: a chunk passes when its document passes the {@link SearchFilter} (namespace
 * and metadata conditions, evaluated as the vector scan does, by {@link MetadataFilters#matches}). It is checked
 * only on the chunks the scoring clauses match (a two-phase check), once per document per search. One instance
 * serves one search on one thread.
 */
final class OwnerFilter extends Query {

  private final Map<Long, TextIndex.Held> chunks;
  private final SearchFilter filter;
  private final Map<VectorIndex.DocInfo, Boolean> passes = new IdentityHashMap<>();

  OwnerFilter(Map<Long, TextIndex.Held> chunks, SearchFilter filter) {
    this.chunks = chunks;
    this.filter = filter;
  }

  boolean passes(long chunkId) {
    TextIndex.Held chunk = chunks.get(chunkId);
    if (chunk == null) {
      return false; // removed while this search ran
    }
    return passes.computeIfAbsent(chunk.owner(), o -> MetadataFilters.matches(filter, o.namespace(), o.metadata()));
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    return new ConstantScoreWeight(this, boost) {
      @Override
      public Scorer scorer(LeafReaderContext context) throws IOException {
        NumericDocValues ids = DocValues.getNumeric(context.reader(), TextIndex.CHUNK_ID);
        DocIdSetIterator all = DocIdSetIterator.all(context.reader().maxDoc());
        TwoPhaseIterator check = new TwoPhaseIterator(all) {
          @Override
          public boolean matches() throws IOException {
            return ids.advanceExact(all.docID()) && passes(ids.longValue());
          }

          @Override
          public float matchCost() {
            return 20;
          }
        };
        return new ConstantScoreScorer(this, score(), scoreMode, check);
      }

      @Override
      public boolean isCacheable(LeafReaderContext ctx) {
        return false;
      }
    };
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return "OwnerFilter(" + filter + ")";
  }

  @Override
  public boolean equals(Object other) {
    return this == other;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
