package dev.argus.retrieval;

import dev.argus.app.Services;
import dev.argus.bus.Addresses;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.UpsertResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small knowledge base for the search tests, written through the real store and embedder of a running app
 * (as ingestion does: embed the chunks, upsert the document with its chunks in one call, then publish the
 * change on {@link Addresses#KNOWLEDGE_CHANGED}).
 */
final class KnowledgeFixture {

  record Doc(String id, String namespace, String title, JsonObject metadata, List<String> chunks) {
  }

  static final List<Doc> DOCS = List.of(
      new Doc("ato-policy", "default", "Account takeover policy",
          new JsonObject().put("category", "policy").put("date", "2023-04-10").put("year", 2023).put("region", "EU"),
          List.of("Account takeover happens when a fraudster logs in with stolen credentials and changes the payout "
                  + "bank account of the seller.",
              "Step-up authentication is required after a password reset followed by a login from a new device "
                  + "within 24 hours.",
              "Analysts escalate accounts whose email address changed to a disposable domain such as "
                  + "mailinator.com.")),
      new Doc("refund-abuse", "default", "Refund abuse",
          new JsonObject().put("category", "pattern").put("date", "2021-08-01").put("year", 2021).put("region", "US"),
          List.of("Refund abuse: customers claim that items never arrived and request refunds again and again, "
              + "sometimes sending the money on through bank transfers.")),
      new Doc("mule-2019", "default", "Money mules",
          new JsonObject().put("category", "pattern").put("date", "2019-03-15").put("year", 2019).put("region", "EU"),
          List.of("Money mule accounts receive stolen funds and forward them quickly through several bank "
              + "transfers to accounts abroad.")),
      new Doc("case-17", "cases", "Case 17: storefront ring",
          new JsonObject().put("category", "case").put("date", "2024-02-02").put("year", 2024).put("region", "APAC"),
          List.of("Case 17: seller seller-88412 used the email jane.roe@fastmail-pay.io and the IP range "
              + "203.0.113.0/24 to open six storefronts that shared one payout bank account.")));

  private KnowledgeFixture() {
  }

  static void ingestAll(Vertx vertx, Services services) throws Exception {
    for (Doc d : DOCS) {
      ingest(vertx, services, d);
    }
  }

  /** Embeds and stores one document, then announces the change as ingestion does. */
  static UpsertResult ingest(Vertx vertx, Services services, Doc d) throws Exception {
    List<float[]> vectors = await(services.embedder().embedPassages(d.chunks()));
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < d.chunks().size(); i++) {
      chunks.add(new Chunk(d.id(), i, d.chunks().size(), d.chunks().get(i), vectors.get(i)));
    }
    String text = String.join("\n\n", d.chunks());
    Document doc = new Document(d.id(), d.namespace(), d.title(), "test", text, d.metadata(), sha256(text),
        chunks.size(), null, null);
    UpsertResult result = await(services.knowledge().upsert(doc, chunks));
    vertx.eventBus().publish(Addresses.KNOWLEDGE_CHANGED, new JsonObject().put("namespace", d.namespace())
        .put("documentId", d.id()).put("change", "upsert"));
    return result;
  }

  static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
  }

  private static String sha256(String s) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }
}
