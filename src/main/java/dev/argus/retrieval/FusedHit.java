package dev.argus.retrieval;

import dev.argus.knowledge.ScoredChunk;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * One chunk after fusion: the chunk (as the first retriever that found it returned it), its fused score, and
 * for each retriever that found it, its rank and score there. Retrievers that did not find it are absent.
 */
public record FusedHit(ScoredChunk chunk, double score, Map<Retriever, LegHit> legs) {

  public FusedHit {
    legs = legs.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(legs));
  }

  public String key() {
    return chunk.key();
  }
}
