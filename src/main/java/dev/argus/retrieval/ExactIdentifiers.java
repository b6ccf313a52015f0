package dev.argus.retrieval;

import dev.argus.knowledge.ScoredChunk;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The exact-identifier signal of hybrid retrieval: a document that <em>is about</em> an identifier of the query
 * (its id, title or a metadata value carries it: the case file of seller {@code SLR-10472}, the profile of
 * {@code k.marlow@example.com}) ranks above documents that merely mention it in their text.
 *
 * <p>Without it, a query such as {@code SLR-10472} ranked a case that cites the seller once above the seller's own
 * case: every retriever scores chunk text, and the citing chunk was short and dense with identifiers. The fused
 * score of each hit whose document carries {@code n} of the query's identifiers is raised by {@code n} (fused scores
 * lie in [0, 1] for weighted fusion and far below 1 for RRF), so those documents come first, ordered among
 * themselves by their fused score, and everything else keeps its order.
 *
 * <p>An identifier is a query token (stripped of surrounding punctuation) that is
 * <ul>
 *   <li>an email-like token: letters or digits on both sides of an {@code @};</li>
 *   <li>a code mixing letters with at least {@value #MIN_DIGITS} digits, in two or more parts or at least
 *       {@value #MIN_CODE_CHARS} characters long ({@code SLR-10472}, {@code dfp-7f3a9c21}, {@code INV2025001}) —
 *       so units and decades ({@code 100mg}, {@code 1990s}) and short names ({@code p53}, {@code IL-6}) are not;</li>
 *   <li>three or more groups of digits (IP addresses, phone numbers, account numbers), except an ISO date.</li>
 * </ul>
 * A document carries an identifier when the identifier's letter-and-digit parts appear, in order and adjacent,
 * among the parts of its id, its title or one of its metadata strings (case-insensitive): {@code SLR-10472} is
 * carried by the id {@code case-slr-10472-synthetic-seller} and by the title {@code Case SLR-10472 - ...}, not by
 * {@code SLR-104721}. Pure and cheap: it only reads the hits' own fields.
 */
public final class ExactIdentifiers {

  static final int MIN_DIGITS = 3;
  static final int MIN_CODE_CHARS = 6;

  private static final Pattern PART = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Pattern EDGES = Pattern.compile("^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$");
  private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

  private ExactIdentifiers() {
  }

  /**
   * The fused ranking with the documents that carry identifiers of {@code query} moved first (their scores raised
   * by one per identifier carried); the ranking itself when the query has no identifier or no hit carries one.
   */
  public static List<FusedHit> promote(String query, List<FusedHit> fused) {
    List<List<String>> ids = identifiers(query);
    if (ids.isEmpty() || fused.isEmpty()) {
      return fused;
    }
    Map<String, Integer> carriedByDocument = new HashMap<>();
    List<FusedHit> out = new ArrayList<>(fused.size());
    boolean any = false;
    for (FusedHit hit : fused) {
      int carried = carriedByDocument.computeIfAbsent(hit.chunk().documentId(), d -> carried(hit.chunk(), ids));
      any |= carried > 0;
      out.add(carried == 0 ? hit : new FusedHit(hit.chunk(), hit.score() + carried, hit.legs()));
    }
    if (!any) {
      return fused;
    }
    out.sort(Comparator.comparingDouble(FusedHit::score).reversed()); // stable: equal scores keep the fused order
    return out;
  }

  /** The query's identifiers, each as its lower-cased letter-and-digit parts, without repeats. */
  static List<List<String>> identifiers(String query) {
    List<List<String>> out = new ArrayList<>();
    for (String raw : query.trim().split("\\s+")) {
      String token = EDGES.matcher(raw).replaceAll("");
      if (isIdentifier(token)) {
        List<String> parts = parts(token);
        if (!parts.isEmpty() && !out.contains(parts)) {
          out.add(parts);
        }
      }
    }
    return out;
  }

  static boolean isIdentifier(String token) {
    int at = token.indexOf('@');
    if (at >= 0) {
      return PART.matcher(token.substring(0, at)).find() && PART.matcher(token.substring(at + 1)).find();
    }
    int letters = 0;
    int digits = 0;
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (Character.isLetter(c)) {
        letters++;
      } else if (Character.isDigit(c)) {
        digits++;
      }
    }
    List<String> parts = parts(token);
    if (letters > 0) {
      return digits >= MIN_DIGITS && (parts.size() >= 2 || letters + digits >= MIN_CODE_CHARS);
    }
    return parts.size() >= 3 && !ISO_DATE.matcher(token).matches();
  }

  /** How many of {@code ids} the chunk's document carries in its id, title or metadata strings. */
  static int carried(ScoredChunk chunk, List<List<String>> ids) {
    List<List<String>> fields = new ArrayList<>();
    fields.add(parts(chunk.documentId()));
    fields.add(parts(chunk.title()));
    JsonObject metadata = chunk.metadata();
    if (metadata != null) {
      for (String key : metadata.fieldNames()) {
        Object value = metadata.getValue(key);
        if (value instanceof String s) {
          fields.add(parts(s));
        } else if (value instanceof JsonArray list) {
          list.forEach(v -> fields.add(parts(v instanceof String s ? s : "")));
        }
      }
    }
    int n = 0;
    for (List<String> id : ids) {
      if (fields.stream().anyMatch(field -> contains(field, id))) {
        n++;
      }
    }
    return n;
  }

  private static boolean contains(List<String> field, List<String> id) {
    return field.size() >= id.size() && Collections.indexOfSubList(field, id) >= 0;
  }

  private static List<String> parts(String text) {
    if (text == null || text.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    Matcher m = PART.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }
}
