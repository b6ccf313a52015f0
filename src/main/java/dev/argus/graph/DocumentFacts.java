package dev.argus.graph;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The graph facts of one knowledge-base document (as {@code argus.knowledge.document.get} returns it, with its
 * chunks): a {@code doc:<id>} node and a MENTIONS edge to every entity a chunk names, each with that chunk
 * ({@code <documentId>#<index>}) as its source, so a graph hit cites the chunk; the origin is the document, so
 * replacing or deleting it removes exactly these facts.
 */
public final class DocumentFacts {

  private final TextExtractor extractor;

  public DocumentFacts(TextExtractor extractor) {
    this.extractor = extractor;
  }

  public Facts of(JsonObject doc) {
    String docId = doc.getString("id");
    Facts out = new Facts().replacing(docId);
    long at = time(doc);
    String node = EntityIds.of(Types.DOCUMENT, docId);
    Facts.Source docSource = new Facts.Source(Facts.Source.CHUNK, docId + "#doc", docId, at);
    JsonObject attrs = new JsonObject().put("namespace", doc.getString("namespace"));
    String title = doc.getString("title");
    out.node(new Facts.NodeFact(node, Types.DOCUMENT, title == null || title.isBlank() ? docId : title, attrs, true, 0,
        docSource));
    JsonArray chunks = doc.getJsonArray("chunks", new JsonArray());
    for (int i = 0; i < chunks.size(); i++) {
      JsonObject c = chunks.getJsonObject(i);
      Facts.Source src = new Facts.Source(Facts.Source.CHUNK, docId + "#" + c.getInteger("index", i), docId, at);
      for (TextExtractor.Mention m : extractor.extract(c.getString("text", ""))) {
        out.edge(new Facts.EdgeFact(Types.MENTIONS, node, Types.DOCUMENT, m.id(), m.type(),
            Types.weight(Types.MENTIONS), src));
      }
    }
    return out;
  }

  private static long time(JsonObject doc) {
    for (String f : new String[] {"updatedAt", "createdAt"}) {
      String s = doc.getString(f);
      if (s != null) {
        try {
          return java.time.Instant.parse(s).toEpochMilli();
        } catch (RuntimeException ignored) {
          // fall through
        }
      }
    }
    return 0L;
  }
}
