package dev.argus.bus;

/**
 * Every event-bus address of Argus, in one place. Message bodies are {@link io.vertx.core.json.JsonObject}s
 * whose shapes are the records named next to each address ({@code toJson()}/{@code fromJson()}).
 * Failures are replied with {@code msg.fail(httpStatus, errorJson)}; see {@link dev.argus.bus.BusFailures}.
 */
public final class Addresses {

  private Addresses() {
  }

  // ---- ingestion: argus.ingest.* -------------------------------------------------------------
  /** Request: {@code IngestRequest}; reply: the job snapshot ({@code IngestJob}). */
  public static final String INGEST_SUBMIT = "argus.ingest.submit";
  /** Request: {@code {jobId}}; reply: the job snapshot. */
  public static final String INGEST_JOB_STATUS = "argus.ingest.job.status";
  /** Publish: progress events of one job, {@code argus.ingest.job.<jobId>.events}. */
  public static String ingestJobEvents(String jobId) {
    return "argus.ingest.job." + jobId + ".events";
  }

  // ---- knowledge base documents: argus.knowledge.* -------------------------------------------
  /** Request: {@code DocumentListRequest} ({@code {namespace?, offset, limit}}); reply: {@code {documents: [...], total}}. */
  public static final String DOCUMENTS_LIST = "argus.knowledge.documents.list";
  /** Request: {@code DocumentRef} ({@code {id}}); reply: the whole document with its chunk list, or fail 404. */
  public static final String DOCUMENT_GET = "argus.knowledge.document.get";
  /** Request: {@code DocumentRef} ({@code {id}}); reply: {@code {deleted: true}}, or fail 404. */
  public static final String DOCUMENT_DELETE = "argus.knowledge.document.delete";
  /** Request: {@code NeighboursRequest} ({@code {documentId, index, before, after}}); reply: {@code {chunks: [...]}}. */
  public static final String CHUNK_NEIGHBOURS = "argus.knowledge.chunks.neighbours";
  /** Request: {@code {}}; reply: store stats (counts, store type, embedder model). */
  public static final String KNOWLEDGE_STATS = "argus.knowledge.stats";
  /** Request: {@code {}}; reply: {@code KnowledgeNamespaces} ({@code {namespaces: [...]}}, the namespaces holding documents). */
  public static final String KNOWLEDGE_NAMESPACES = "argus.knowledge.namespaces";
  /** Request: {@code {}}; reply: {@code {namespaces: [NamespaceCount {name, documents}], total}}, for the API. */
  public static final String KNOWLEDGE_NAMESPACE_COUNTS = "argus.knowledge.namespaces.counts";
  /** Publish: {@code {namespace, documentId, change: "upsert"|"delete"}} after every committed change. */
  public static final String KNOWLEDGE_CHANGED = "argus.knowledge.changed";

  // ---- retrieval: argus.retrieve.* -----------------------------------------------------------
  /** Request: {@code SearchRequest}; reply: {@code SearchResponse}. */
  public static final String RETRIEVE_SEARCH = "argus.retrieve.search";

  // ---- LLM provider: argus.llm.* ---------------------------------------------------------------
  /** Request: {@code {}}; reply: {@code {provider, enabled, model, breaker, active, stats: {...}}} ({@code LlmStatusVerticle}). */
  public static final String LLM_STATUS = "argus.llm.status";

  // ---- agent runs: argus.agent.*, argus.run.<runId> --------------------------------------------
  /** Request: {@code StartRun} ({@code {runId?, question, namespace?, filters?, profile?, sessionId?}}); reply: {@code {runId}}. */
  public static final String AGENT_RUN_START = "argus.agent.run.start";
  /** Request: {@code {runId}}; reply: the whole {@code Run} record, or fail 404. */
  public static final String AGENT_RUN_GET = "argus.agent.run.get";
  /** Request: {@code {runId, afterId}}; reply: {@code {events: [RunEvent...], finished}} (live log or store), or fail 404. */
  public static final String AGENT_RUN_EVENTS = "argus.agent.run.events";
  /** Send (phases to coordinator): {@code PhaseEvent} ({@code {runId, type, data}}); the coordinator assigns the id, logs and publishes it. */
  public static final String AGENT_RUN_EMIT = "argus.agent.run.emit";
  /** Request: {@code PhaseRequest} ({@code {run, profile, args}}); reply: {@code PhaseResult}. One address per phase ({@code Phase#address()}). */
  public static final String AGENT_THINK = "argus.agent.think";
  public static final String AGENT_PLAN = "argus.agent.plan";
  public static final String AGENT_ACT = "argus.agent.act";
  public static final String AGENT_OBSERVE = "argus.agent.observe";
  public static final String AGENT_REFLECT = "argus.agent.reflect";

  // ---- fraud-domain records: argus.records.* (shapes in dev.argus.records) -------------------------------------
  /** Request: {@code {text (JSON Lines), wait}}; reply: the job snapshot ({@code RecordJob}). */
  public static final String RECORDS_LOAD = "argus.records.load";
  /** Request: {@code {jobId}}; reply: the job snapshot, or fail 404. */
  public static final String RECORDS_JOB_STATUS = "argus.records.job.status";
  /** Publish: events of one load job ({@code RecordJobEvent}), {@code argus.records.job.<jobId>.events}. */
  public static String recordJobEvents(String jobId) {
    return "argus.records.job." + jobId + ".events";
  }
  /** Request: {@code {id, asOf?}}; reply: the stored form (as of {@code asOf}), or fail 404. */
  public static final String RECORDS_GET = "argus.records.get";
  /** Request: {@code RecordQuery}; reply: {@code {records: [...], offset, limit, hasMore}}. */
  public static final String RECORDS_QUERY = "argus.records.query";
  /** Request: {@code {id}}; reply: {@code {deleted: true, id}}, or fail 404. */
  public static final String RECORDS_DELETE = "argus.records.delete";
  /** Publish: {@code RecordsChanged} ({@code {change, kinds, ids}}) after each committed batch. */
  public static final String RECORDS_CHANGED = "argus.records.changed";
  /** Request: {@code {sellerId, asOf?}}; reply: {@code {sellerId, asOf, items: [...]}} (tool {@code seller_profile}). */
  public static final String RECORDS_SELLER_PROFILE = "argus.records.seller.profile";
  /** Request: {@code {sellerId, asOf?, transactionId?}}; reply: {@code {sellerId, asOf, items}} (tool {@code transaction_history}). */
  public static final String RECORDS_TRANSACTION_HISTORY = "argus.records.transactions.history";
  /** Request: {@code WatchlistQuery}; reply: {@code {checked, items}} (tool {@code watchlist_match}). */
  public static final String RECORDS_WATCHLIST_MATCH = "argus.records.watchlist.match";

  // ---- entity graph: argus.graph.* (owned by dev.argus.graph) -----------------------------------------------------
  /** Request: {@code {change: "upsert"|"delete", records: [stored form...]}}; reply: {@code {nodes, edges}}. */
  public static final String GRAPH_RECORDS_APPLY = "argus.graph.records.apply";
  /** Request: {@code {id}}; reply: {@code {id, type, label, attributes, risk, firstSeen, lastSeen, degree, cite}}, or fail 404. */
  public static final String GRAPH_ENTITY_GET = "argus.graph.entity.get";
  /** Request: {@code {id}}; reply: the edge {@code {id, type, from, to, weight, firstSeen, lastSeen, provenance:[{kind, id, at}], sources, cite}}, or 404. */
  public static final String GRAPH_RELATION_GET = "argus.graph.relation.get";
  /** Request: {@code {id, depth<=3, limit?, fanout?, minWeight?, asOf?}}; reply: {@code {center, nodes, edges, truncated}} ({@code Subgraph}). */
  public static final String GRAPH_NEIGHBOURHOOD = "argus.graph.neighbourhood";
  /** Request: {@code {from, to, maxDepth<=5, minWeight?, asOf?}}; reply: {@code {found, hops?, path?: {nodes:[ids], edges:[edge]}}}. */
  public static final String GRAPH_PATH = "argus.graph.path";
  /** Request: {@code {q, type?, limit?}}; reply: {@code {entities: [node...]}} (fuzzy: trigram similarity and substring). */
  public static final String GRAPH_SEARCH = "argus.graph.search";
  /** Request: {@code {id, asOf?}}; reply: {@code {id, items, signals}}: the identifiers the entity shares with others. */
  public static final String GRAPH_CONNECTIONS = "argus.graph.connections";
  /** Request: {@code {id, asOf?}}; reply: {@code {id, score, items, signals}} (tool risk_propagation). */
  public static final String GRAPH_RISK_PROPAGATION = "argus.graph.risk.propagation";
  /** Request: {@code {id, asOf?, maxLength?}}; reply: {@code {id, items, signals}} (rings with stable ids; tool find_rings). */
  public static final String GRAPH_RINGS = "argus.graph.rings";
  /** Request: {@code {id, asOf?}}; reply: {@code {id, items, signals}} (the community with a stable id; tool community). */
  public static final String GRAPH_COMMUNITY = "argus.graph.community";
  /** Request: {@code {entity, maxHops<=3?, minWeight?, asOf?}}; reply: {@code {entity, hops:[...], items, signals, evidenceChain}}. */
  public static final String GRAPH_INVESTIGATE = "argus.graph.investigate";
  /** Request: {@code {email? | sellerId?, businessDomain?, asOf?}}; reply: {@code {items, signals}} (tool email_risk). */
  public static final String GRAPH_EMAIL_RISK = "argus.graph.email.risk";
  /** Request: {@code {ip? | sellerId?, country?, asOf?}}; reply: {@code {items, signals}} (tool ip_risk). */
  public static final String GRAPH_IP_RISK = "argus.graph.ip.risk";
  /** Request: {@code {sellerId, asOf?, limit?}}; reply: {@code {items, signals}} (tool similar_cases: knowledge base + graph overlap). */
  public static final String GRAPH_SIMILAR_CASES = "argus.graph.similar.cases";
  /** Publish: {@code {origins: [...], nodes, edges, removedNodes, removedEdges}} after every committed graph change. */
  public static final String GRAPH_CHANGED = "argus.graph.changed";

  // ---- decisions: argus.decide.*, argus.decisions.*, argus.reviews.* (owned by dev.argus.decide) -------------------
  /**
   * Request: {@code {sellerId | seller: {record}, asOf?, runId?}}; reply: the decision JSON ({@code decisionId, runId,
   * profile, subjectId, outcome, riskScore, confidence, calibratedConfidence, status, reasons, signals, firedRules,
   * policyVersion, reflection, consensus, tools, timings, createdAt}); fails 400/404 on a bad or unknown subject.
   */
  public static final String DECIDE_ONBOARDING = "argus.decide.onboarding";
  /** Request: {@code {transactionId | transaction: {record}, asOf?, runId?}}; reply: the decision JSON. */
  public static final String DECIDE_TRANSACTION = "argus.decide.transaction";
  /** Request: {@code {profile, domain, signals: [signal], thresholds: {review, reject}}}; reply: a consensus vote. */
  public static final String DECIDE_ASSESS_IDENTITY = "argus.decide.assess.identity";
  public static final String DECIDE_ASSESS_NETWORK = "argus.decide.assess.network";
  public static final String DECIDE_ASSESS_BEHAVIOUR = "argus.decide.assess.behaviour";
  /** Publish: the decision JSON of every new decision (engine or review). */
  public static final String DECISIONS_CREATED = "argus.decisions.created";
  /** Request: {@code {id}}; reply: the decision JSON with {@code correctedBy: [ids]}, or fail 404. */
  public static final String DECISIONS_GET = "argus.decisions.get";
  /** Request: {@code {subject?, outcome?, status?, profile?, from?, to?, limit}}; reply: {@code {decisions: [...]}}. */
  public static final String DECISIONS_LIST = "argus.decisions.list";
  /** Request: {@code {id, format: json|html}}; reply: {@code {contentType, body}} (the audit file). */
  public static final String DECISIONS_EXPORT = "argus.decisions.export";
  /** Request: {@code {status, sort: confidence|age, limit}}; reply: {@code {reviews: [...], sla: {profile: {...}}}}. */
  public static final String REVIEWS_LIST = "argus.reviews.list";
  /** Request: {@code {reviewId, analyst}}; reply: the review with its claim; 409 when someone else holds it. */
  public static final String REVIEWS_CLAIM = "argus.reviews.claim";
  /**
   * Request: {@code {reviewId, analyst, action: approve|reject|override|escalate, outcome? (override), reason}};
   * reply: {@code {review, decision}} (the new decision record).
   */
  public static final String REVIEWS_COMPLETE = "argus.reviews.complete";
  /** Publish: {@code {reviewId, decisionId, newDecisionId, action, analyst, reason}}. */
  public static final String REVIEWS_COMPLETED = "argus.reviews.completed";
  /** Request: {@code {version, limit}}; reply: where the candidate version's outcomes differ from the live ones. */
  public static final String SHADOW_DIFF = "argus.shadow.diff";

  // ---- backtests: argus.backtest.* (shapes in dev.argus.backtest) -----------------------------------------------
  /** Request: {@code BacktestRequest}; reply: the queued job ({@code BacktestJob} JSON), or fail 400/503. */
  public static final String BACKTEST_START = "argus.backtest.start";
  /** Request: {@code {backtestId}}; reply: the job with its report once completed, or fail 404. */
  public static final String BACKTEST_GET = "argus.backtest.get";
  /**
   * Request: {@code {backtestId, offset?, limit? (≤ 1000), pattern?, outcome?, fraud?}}; reply: {@code {decisions:
   * [verdict...], total, offset, limit}} (a verdict: subject, label, outcome, status, riskScore, signals, rules,
   * latencyMs, error), or fail 404.
   */
  public static final String BACKTEST_DECISIONS = "argus.backtest.decisions";
  /** Request: {@code {}}; reply: {@code {backtests: [job without report...]}}, newest first. */
  public static final String BACKTEST_LIST = "argus.backtest.list";
  /** Request: {@code {backtestId, profile, version?, adoptedBy}}; reply: {@code {file, version, thresholds}}, or 404/409. */
  public static final String BACKTEST_ADOPT = "argus.backtest.thresholds.adopt";
  /** Publish: events of one backtest ({@code BacktestEvent}), {@code argus.backtest.<id>.events}. */
  public static String backtestEvents(String backtestId) {
    return "argus.backtest." + backtestId + ".events";
  }

  /** Publish: progress events of one run (relayed over SSE). */
  public static String runEvents(String runId) {
    return "argus.run." + runId;
  }
}
