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
  /** Request: {@code {runId}}; reply: the whole {@code Run} record, or fail 404. Node-local (any node reads any run). */
  public static final String AGENT_RUN_GET = "argus.agent.run.get";
  /**
   * Request: {@code {limit (1..200), before? (ms, exclusive), status? (running|completed|failed), namespaces?}}; reply:
   * {@code {items: [{runId, profile, status, question, createdAt, updatedAt, finishedAt?}], next?}}, newest first, chat
   * and decision runs alike; fail 400 on a bad field. Node-local (every node reads the shared store).
   */
  public static final String AGENT_RUN_LIST = "argus.agent.run.list";
  /** Request: {@code {runId, afterId}}; reply: {@code {events: [RunEvent...], finished}} (live log or store), or fail 404. Node-local. */
  public static final String AGENT_RUN_EVENTS = "argus.agent.run.events";
  /** Send (phases to coordinator, node-local): {@code PhaseEvent} ({@code {runId, type, data}}); the coordinator assigns the id, logs and publishes it. */
  public static final String AGENT_RUN_EMIT = "argus.agent.run.emit";
  /**
   * Request: {@code {run: Run json, events: [RunEvent...]}} of a finished run made elsewhere (a decision); the
   * coordinator stores both, so {@code GET /api/runs/{id}/events} replays it after {@code Last-Event-ID}; reply {@code {}}.
   */
  public static final String AGENT_RUN_RECORD = "argus.agent.run.record";
  /**
   * Request (node-local): {@code {run: Run json}} of a decision starting on this node (running, next phase
   * {@code decision}); in cluster mode the coordinator takes its lease and stores it, so the run is failed with a
   * reason by another node if this one dies; reply {@code {}}, or fail 409 {@code duplicate_run}.
   */
  public static final String AGENT_RUN_BEGIN = "argus.agent.run.begin";
  /** Request: {@code PhaseRequest} ({@code {run, profile, args}}); reply: {@code PhaseResult}. One address per phase ({@code Phase#address()}), node-local. */
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
  /** Request: {@code {id, asOf?}}; reply: {@code {id, items, signals}} (tool identifier_sharing: shared identifiers, two reads). */
  public static final String GRAPH_IDENTIFIER_SHARING = "argus.graph.identifier.sharing";
  /** Publish: {@code {origins: [...], nodes, edges, removedNodes, removedEdges}} after every committed graph change. */
  public static final String GRAPH_CHANGED = "argus.graph.changed";

  // ---- citation validation (owned by dev.argus.citations) --------------------------------------------------------
  /**
   * Request: {@code CitationRequest} {@code {citations: [{citation, claim?: {from?, to, relation?}}],
   * evidence?: [EvidenceItem json], asOf?}}; reply: {@code {results: [CitationResult {citation, status, confidence,
   * entityConfidence, relationConfidence, depth, relation?, reasoning: [{kind, text, rule?, ids}], reason?}],
   * rulesVersion}} in request order. 400 for a wrong shape; a malformed citation is excluded, not a failure.
   */
  public static final String CITATIONS_VALIDATE = "argus.graph.citations.validate";

  // ---- observability: argus.observe.* (owned by dev.argus.observe) and the events it listens to -----------------
  /**
   * Request (served by the agent, which owns the run store): {@code {beforeMs}} → {@code {runs, events}}: deletes
   * the ended runs last updated before {@code beforeMs} with their event logs (run retention).
   */
  public static final String RUNS_PURGE = "argus.runs.purge";
  /** Request: {@code {runId}} → the run's trace {@code {runId, traceId, spans: [...]}}; 404 {@code not_found}. */
  public static final String OBSERVE_TRACE_GET = "argus.observe.trace.get";
  /**
   * Request: {@code {}} → {@code {agents: [{phase, ok, failed, fallbacks, llm, rules}], tools: [{tool, success,
   * error, lastError}], activeRuns, breakers: {name: closed|half_open|open}, tracing, retention}} (since start).
   */
  public static final String OBSERVE_HEALTH = "argus.observe.health";
  /** Request: {@code {}} → {@code {ok, store, checks: [{name, ok, detail}]}}: the knowledge store's consistency. */
  public static final String KNOWLEDGE_CONSISTENCY = "argus.knowledge.consistency";
  /** Publish (by evaluate): {@code {runId?, profile, metric, value}}, one score of an evaluated run (0..1). */
  public static final String EVAL_SCORED = "argus.eval.scored";
  /** Publish (by feedback): {@code {profile, calibrationError}}, expected calibration error after a refit (0..1). */
  public static final String CALIBRATION_UPDATED = "argus.calibration.updated";
  /** Publish (by bridge): {@code {transport: sockjs|tcp, open}}, the open bridge connections after a change. */
  public static final String BRIDGE_CONNECTIONS = "argus.bridge.connections";

  // ---- run completion and decisions (published by their owners; evaluation listens) ------------------------------
  /** Publish (the coordinator, after a run's final checkpoint): {@code {runId, profile, kind: "chat"|"decision", status}}. */
  public static final String RUNS_COMPLETED = "argus.runs.completed";

  // ---- evaluation: argus.eval.* (owned by dev.argus.eval; shapes in dev.argus.eval.store / eval.golden) -------------
  /** Publish: {@code Evaluation} ({@code {runId, kind, profile, evaluatedAt, metrics, notes, details}}) after it is stored. */
  public static final String EVAL_EVALUATED = "argus.eval.evaluated";
  /** Publish: {@code Regression} ({@code {id, profile, metric, hour, lastValue, baseline, dropRatio, threshold}}). */
  public static final String EVAL_REGRESSION = "argus.eval.regression";
  /** Request: {@code {runId}}; reply: the {@code Evaluation}, or fail 404. */
  public static final String EVAL_RUN_GET = "argus.eval.run.get";
  /** Request: {@code {metric?, profile?, from, to, limit}} (epoch ms); reply: {@code {scores: [ScoreRow], hourly: [HourlyPoint]}}. */
  public static final String EVAL_HISTORY = "argus.eval.history";
  /** Request: {@code {profile?, metric?, hours?}}; reply: {@code {from, to, hours, series: [{profile, metric, points: [HourlyPoint]}]}}. */
  public static final String EVAL_TREND = "argus.eval.trend";
  /** Request: {@code {profile?, from, to, limit}}; reply: {@code {regressions: [Regression]}}. */
  public static final String EVAL_REGRESSIONS = "argus.eval.regressions";
  /** Request: {@code {}}; reply: store counts, the evaluator's counters and its configuration. */
  public static final String EVAL_STATS = "argus.eval.stats";
  /** Request: {@code {now?}}; reply: {@code {hours, points, regressions: [Regression]}} (the periodic task, run now). */
  public static final String EVAL_AGGREGATE = "argus.eval.aggregate";
  /** Request: {@code {}}; reply: {@code {sets: [{name, description, questions, decisions, updatedAt}]}}. */
  public static final String EVAL_SETS_LIST = "argus.eval.sets.list";
  /** Request: {@code {name}}; reply: the {@code GoldenSet}, or fail 404. */
  public static final String EVAL_SET_GET = "argus.eval.sets.get";
  /** Request: {@code GoldenSet} (validated); reply: the stored set. */
  public static final String EVAL_SET_PUT = "argus.eval.sets.put";
  /** Request: {@code {name}}; reply: {@code {deleted: true}}, or fail 404. */
  public static final String EVAL_SET_DELETE = "argus.eval.sets.delete";
  /** Request: {@code {name, baseline?}}; reply: the {@code SetResult} once every case has run (kept). */
  public static final String EVAL_SET_RUN = "argus.eval.sets.run";
  /** Request: {@code {name, limit}} or {@code {resultId}}; reply: {@code {results: [SetResult]}} or the one result. */
  public static final String EVAL_SET_RESULTS = "argus.eval.sets.results";

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
  /**
   * Request: {@code {id}}; reply: the decision JSON with {@code correctedBy: [ids]}, or fail 404. Or {@code {runId}}:
   * the decision that run recorded (without {@code correctedBy}), or fail 404.
   */
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

  // ---- access control: argus.access.*, argus.audit.* (owned by dev.argus.access) ---------------------------------
  /** Request: {@code {role, namespaces?, rateLimit?, label?, actor, actorRole}}; reply: {@code {key: ApiKey, secret}}
   *  (the key text, shown once), or fail 400 / 409 {@code too_many_keys}. */
  public static final String ACCESS_KEYS_CREATE = "argus.access.keys.create";
  /** Request: {@code {}}; reply: {@code {keys: [ApiKey...]}} (never a secret or hash). */
  public static final String ACCESS_KEYS_LIST = "argus.access.keys.list";
  /** Request: {@code {id, actor, actorRole}}; reply: the revoked {@code ApiKey}, or fail 404. */
  public static final String ACCESS_KEYS_REVOKE = "argus.access.keys.revoke";
  /** Request: {@code AuditEntry} ({@code {actor, role, action, target?, outcome?, detail?}}), e.g. a review action
   *  with its details; reply: {@code {seq}}. */
  public static final String AUDIT_APPEND = "argus.audit.append";
  /** Request: {@code {before?, limit}}; reply: {@code {entries: [AuditEntry...], next?}} (newest first). */
  public static final String AUDIT_LIST = "argus.audit.list";

  // ---- feedback and calibration: argus.feedback.*, argus.calibration.* (owned by dev.argus.feedback) --------------
  /** Request: {@code FeedbackRequest}; reply: {@code {feedback, decision?, calibration: {profile, version, refitted}}}; 404 unknown target. */
  public static final String FEEDBACK_SUBMIT = "argus.feedback.submit";
  /** Request: {@code {profile?, limit}}; reply: {@code {items: [DecisionRef...], profile, limit}} (unlabelled, lowest calibrated confidence first). */
  public static final String FEEDBACK_QUEUE = "argus.feedback.queue";
  /** Request: {@code {}}; reply: {@code {total, last24h, byAnalyst, byProfile, byReason, accuracyByConfidence, labelled}}. */
  public static final String FEEDBACK_STATS = "argus.feedback.stats";
  /** Request: {@code {targetId, limit}}; reply: {@code {items: [Feedback...]}} (newest first). */
  public static final String FEEDBACK_LIST = "argus.feedback.list";
  /** Publish: {@code Feedback} json after each stored verdict. */
  public static final String FEEDBACK_RECORDED = "argus.feedback.recorded";
  /** Request: {@code {profile, confidence}}; reply: {@code {calibrated, calibratorVersion: "v<n>" | "raw" (not fitted yet: calibrated = raw), version, profile}}. */
  public static final String CALIBRATION_APPLY = "argus.calibration.apply";
  /** Request: {@code {profile?}}; reply: the profile's buckets, ECE, reliability diagram and calibrator (or every profile's summary). */
  public static final String CALIBRATION_GET = "argus.calibration.get";
  /** Publish: {@code {profile, version, labels, eceBefore, eceAfter}} after each refit. */
  public static final String CALIBRATION_REFITTED = "argus.calibration.refitted";

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

  // ---- adversarial runs: argus.adversarial.* (owned by dev.argus.adversarial) -----------------------------------
  /** Request: {@code AdversarialRequest} ({@code {suite: "all" | [type...], size?}}); reply: the run ({@code status: running}), or 400/429. */
  public static final String ADVERSARIAL_START = "argus.adversarial.runs.start";
  /** Request: {@code {executionId}}; reply: the run with its progress, or its persisted report once done; 404 unknown. */
  public static final String ADVERSARIAL_GET = "argus.adversarial.runs.get";
  /** Request: {@code {limit}}; reply: {@code {runs: [run without findings...]}}, newest first. */
  public static final String ADVERSARIAL_LIST = "argus.adversarial.runs.list";
  /** Publish: events of one adversarial run ({@code {seq, type: progress|done, data}}), {@code argus.adversarial.<id>.events}. */
  public static String adversarialEvents(String executionId) {
    return "argus.adversarial." + executionId + ".events";
  }

  /** Publish: progress events of one run (relayed over SSE). */
  public static String runEvents(String runId) {
    return "argus.run." + runId;
  }
}
