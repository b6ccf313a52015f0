package dev.argus.eval.golden;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A named golden set: questions with the citations an answer should carry ({@code documentId} or
 * {@code documentId:chunkIndex}) and the key facts it should state, and decision cases with the expected outcome.
 * {@link #fromJson} validates everything (a 400 {@code {error, code}} naming the field) with size limits.
 */
public record GoldenSet(String name, String description, List<Question> questions, List<DecisionCase> decisions) {

  public static final int MAX_NAME = 64;
  public static final int MAX_TEXT = 2000;
  public static final int MAX_ITEMS = 50;

  public record Question(String id, String question, String namespace, String profile, List<String> expectedCitations,
                         List<String> keyFacts) {
    JsonObject toJson() {
      return new JsonObject().put("id", id).put("question", question).put("namespace", namespace)
          .put("profile", profile).put("expectedCitations", new JsonArray(expectedCitations))
          .put("keyFacts", new JsonArray(keyFacts));
    }
  }

  /** {@code type} onboarding (subject: a seller id) or transaction (subject: a transaction id). */
  public record DecisionCase(String id, String type, String subject, String expectedOutcome, String asOf) {
    JsonObject toJson() {
      return new JsonObject().put("id", id).put("type", type).put("subject", subject)
          .put("expectedOutcome", expectedOutcome).put("asOf", asOf);
    }
  }

  public int size() {
    return questions.size() + decisions.size();
  }

  public JsonObject toJson() {
    JsonArray q = new JsonArray();
    questions.forEach(x -> q.add(x.toJson()));
    JsonArray d = new JsonArray();
    decisions.forEach(x -> d.add(x.toJson()));
    return new JsonObject().put("name", name).put("description", description).put("questions", q).put("decisions", d);
  }

  public static void checkName(String name) {
    if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0," + (MAX_NAME - 1) + "}")) {
      throw ApiException.badRequest("invalid_name", "a set name is 1 to " + MAX_NAME
          + " letters, digits, '_', '.' or '-', starting with a letter or digit");
    }
  }

  public static GoldenSet fromJson(JsonObject j, int maxCases) {
    String name = j.getValue("name") instanceof String s ? s : null;
    checkName(name);
    String description = optionalText(j, "description", "description");
    List<Question> questions = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    JsonArray qs = array(j, "questions");
    for (int i = 0; i < qs.size(); i++) {
      String where = "questions[" + i + "]";
      JsonObject q = object(qs.getValue(i), where);
      String id = id(q, where, i, ids);
      String text = requiredText(q, "question", where + ".question");
      questions.add(new Question(id, text, optionalText(q, "namespace", where + ".namespace"),
          optionalText(q, "profile", where + ".profile"), strings(q, "expectedCitations", where),
          strings(q, "keyFacts", where)));
    }
    List<DecisionCase> decisions = new ArrayList<>();
    JsonArray ds = array(j, "decisions");
    for (int i = 0; i < ds.size(); i++) {
      String where = "decisions[" + i + "]";
      JsonObject d = object(ds.getValue(i), where);
      String id = id(d, where, i + qs.size(), ids);
      String type = requiredText(d, "type", where + ".type");
      if (!type.equals("onboarding") && !type.equals("transaction")) {
        throw ApiException.badRequest("invalid_field", where + ".type must be 'onboarding' or 'transaction'");
      }
      String outcome = requiredText(d, "expectedOutcome", where + ".expectedOutcome");
      if (!outcome.matches("APPROVE|REVIEW|REJECT|ALLOW|BLOCK")) {
        throw ApiException.badRequest("invalid_field", where + ".expectedOutcome must be one of APPROVE, REVIEW, "
            + "REJECT, ALLOW, BLOCK");
      }
      decisions.add(new DecisionCase(id, type, requiredText(d, "subject", where + ".subject"), outcome,
          optionalText(d, "asOf", where + ".asOf")));
    }
    if (questions.isEmpty() && decisions.isEmpty()) {
      throw ApiException.badRequest("empty_set", "a set needs at least one question or decision case");
    }
    if (questions.size() + decisions.size() > maxCases) {
      throw ApiException.badRequest("too_many_cases", "a set holds at most " + maxCases + " cases");
    }
    return new GoldenSet(name, description, questions, decisions);
  }

  private static String id(JsonObject o, String where, int index, Set<String> ids) {
    String id = optionalText(o, "id", where + ".id");
    if (id == null) {
      id = "case-" + (index + 1);
    }
    if (!ids.add(id)) {
      throw ApiException.badRequest("duplicate_id", where + ".id '" + id + "' is used twice");
    }
    return id;
  }

  private static JsonArray array(JsonObject j, String key) {
    Object v = j.getValue(key);
    if (v == null) {
      return new JsonArray();
    }
    if (!(v instanceof JsonArray a)) {
      throw ApiException.badRequest("invalid_field", "'" + key + "' must be an array");
    }
    return a;
  }

  private static JsonObject object(Object v, String where) {
    if (!(v instanceof JsonObject o)) {
      throw ApiException.badRequest("invalid_field", where + " must be a JSON object");
    }
    return o;
  }

  private static String requiredText(JsonObject o, String key, String where) {
    String s = optionalText(o, key, where);
    if (s == null || s.isBlank()) {
      throw ApiException.badRequest("missing_field", "field '" + where + "' is required");
    }
    return s;
  }

  private static String optionalText(JsonObject o, String key, String where) {
    Object v = o.getValue(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw ApiException.badRequest("invalid_field", "field '" + where + "' must be a string");
    }
    if (s.length() > MAX_TEXT) {
      throw ApiException.badRequest("field_too_long", "field '" + where + "' is longer than " + MAX_TEXT + " characters");
    }
    return s;
  }

  private static List<String> strings(JsonObject o, String key, String where) {
    JsonArray a;
    Object v = o.getValue(key);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof JsonArray arr)) {
      throw ApiException.badRequest("invalid_field", "field '" + where + "." + key + "' must be an array of strings");
    }
    a = arr;
    if (a.size() > MAX_ITEMS) {
      throw ApiException.badRequest("too_many_items", "field '" + where + "." + key + "' holds more than " + MAX_ITEMS);
    }
    List<String> out = new ArrayList<>();
    for (Object x : a) {
      if (!(x instanceof String s) || s.isBlank() || s.length() > MAX_TEXT) {
        throw ApiException.badRequest("invalid_field", "field '" + where + "." + key
            + "' must hold non-empty strings of at most " + MAX_TEXT + " characters");
      }
      out.add(s);
    }
    return out;
  }
}
