package dev.argus.graph;

import dev.argus.common.Fingerprinter;
import dev.argus.records.RecordValidator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A hand-made world for the graph tests, as wire records turned into their stored form by the real validator:
 * <pre>
 *   S-1 --USES_EMAIL 0.9-- email:kimmarlo@gmail.com --0.9-- S-2     (Kim.Marlo+shop@gmail.com / kimmarlo@googlemail.com)
 *   S-1 --PAYS_OUT_TO 1.0-- bank:fp(DE89...3000) --1.0-- S-2         (same IBAN written with and without spaces)
 *   S-2 --USES_DEVICE 0.9-- device:d-2 --0.9-- S-3
 *   S-1 --USES_DEVICE-- device:d-1;  S-1 --LOGGED_IN_FROM 0.7-- ip:203.0.113.7;  S-3 -- ip:203.0.113.9 (same /24)
 *   S-2 --HAS_WEBSITE 0.8-- domain:marlo-shop.example;  S-1 --SUBJECT_OF 1.0-- C-1 (outcome fraud: S-1 risk 1.0)
 * </pre>
 */
final class GraphWorld {

  static final Fingerprinter FP = new Fingerprinter("graph-test-key-0123456789".getBytes(StandardCharsets.UTF_8));
  static final RecordValidator VALIDATOR = new RecordValidator(FP, 65_536);

  private GraphWorld() {
  }

  static List<JsonObject> wire() {
    return List.of(
        new JsonObject().put("kind", "seller").put("id", "S-1").put("createdAt", "2025-01-01T00:00:00Z")
            .put("legalName", "Kim Marlo").put("email", "Kim.Marlo+shop@gmail.com").put("country", "DE")
            .put("bankAccount", "DE89370400440532013000").put("deviceIds", new JsonArray().add("d-1"))
            .put("ips", new JsonArray().add("203.0.113.7")),
        new JsonObject().put("kind", "seller").put("id", "S-2").put("createdAt", "2025-02-01T00:00:00Z")
            .put("legalName", "K Marlo").put("email", "kimmarlo@googlemail.com").put("country", "DE")
            .put("bankAccount", "DE89 3704 0044 0532 0130 00").put("deviceIds", new JsonArray().add("d-2"))
            .put("website", "https://www.marlo-shop.example/about"),
        new JsonObject().put("kind", "seller").put("id", "S-3").put("createdAt", "2025-03-01T00:00:00Z")
            .put("legalName", "Other Person").put("country", "DE").put("deviceIds", new JsonArray().add("d-2"))
            .put("ips", new JsonArray().add("203.0.113.9")),
        new JsonObject().put("kind", "case").put("id", "C-1").put("subjectIds", new JsonArray().add("S-1"))
            .put("outcome", "fraud").put("summary", "Bust-out.").put("openedAt", "2025-04-01T00:00:00Z")
            .put("closedAt", "2025-04-10T00:00:00Z"));
  }

  static JsonArray stored(List<JsonObject> wire) {
    List<Object> out = new ArrayList<>();
    long n = 1;
    for (JsonObject w : wire) {
      RecordValidator.Line line = VALIDATOR.line(n++, w.encode());
      if (line.record() == null) {
        throw new IllegalStateException(String.valueOf(line.error()));
      }
      out.add(line.record().body());
    }
    return new JsonArray(out);
  }
}
