package dev.argus.agent;

import dev.argus.agent.profile.Profile;
import dev.argus.agent.profile.Profiles;
import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.AgentConf;
import dev.argus.documents.KnowledgeNamespaces;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Checks a {@link StartRun} before the coordinator records anything: a question within the size limit, a known
 * profile, and a namespace that holds documents (asked over the bus: the knowledge base owns its store).
 */
final class RunAdmission {

  static final long NAMESPACE_TIMEOUT_MS = 5_000;

  /** What a run starts with once admitted. */
  record Admitted(String question, Profile profile, String namespace) {
  }

  private final Vertx vertx;
  private final Profiles profiles;
  private final AgentConf conf;

  RunAdmission(Vertx vertx, Profiles profiles, AgentConf conf) {
    this.vertx = vertx;
    this.profiles = profiles;
    this.conf = conf;
  }

  /** 400 for an empty or too long question or an unknown namespace; the profile's own error when it is unknown. */
  Future<Admitted> admit(StartRun req) {
    String question = req.question() == null ? "" : req.question().trim();
    if (question.isEmpty()) {
      return Future.failedFuture(ApiException.badRequest("empty_field", "field 'question' must not be empty"));
    }
    if (question.length() > conf.maxQuestionChars()) {
      return Future.failedFuture(ApiException.badRequest("field_too_long", "field 'question' is longer than "
          + conf.maxQuestionChars() + " characters"));
    }
    Profile profile;
    try {
      profile = profiles.get(req.profile());
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    String namespace = req.namespace() == null || req.namespace().isBlank() ? "default" : req.namespace();
    Admitted admitted = new Admitted(question, profile, namespace);
    return "default".equals(namespace) ? Future.succeededFuture(admitted) : known(namespace).map(admitted);
  }

  private Future<Void> known(String namespace) {
    return vertx.eventBus().<JsonObject>request(Addresses.KNOWLEDGE_NAMESPACES, new JsonObject(),
            new DeliveryOptions().setSendTimeout(NAMESPACE_TIMEOUT_MS))
        .recover(err -> Future.failedFuture(BusFailures.toApi(err)))
        .compose(m -> {
          List<String> known = KnowledgeNamespaces.fromJson(m.body()).namespaces();
          return known.contains(namespace) ? Future.succeededFuture()
              : Future.failedFuture(ApiException.badRequest("unknown_namespace", "unknown namespace '" + namespace
                  + "' (known: " + known + ")"));
        });
  }
}
