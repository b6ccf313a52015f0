package dev.argus.agent.phases;

import dev.argus.agent.profile.Profile;
import dev.argus.agent.tools.ToolRegistry;
import dev.argus.llm.ChatMessage;
import dev.argus.llm.LlmClient;
import dev.argus.llm.StructuredOutput;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * Plan: which tools to call. Output {@code {calls: [{tool, params}], followUp?, rationale, tried}}. Rules: one
 * {@code knowledge_search} with the query, the namespace and the filters, then {@code get_chunk_neighbours} for the
 * top hits ({@code followUp}, run by Act once the search returned). A refinement or a re-plan never repeats a query
 * the run tried ({@code tried}; {@link Reformulations}); a re-plan after failed calls reads what they returned: a
 * failed search with filters is retried without the proposed filters, one that timed out asks for fewer hits. With
 * an LLM the plan is JSON through {@code StructuredOutput}. The planner never sees retrieved text, so documents
 * cannot steer which tools run.
 */
public final class PlanPhase implements PhaseStep {

  private final LlmClient llm;
  private final Function<Profile, ToolRegistry> registries;

  public PlanPhase(LlmClient llm, Function<Profile, ToolRegistry> registries) {
    this.llm = llm;
    this.registries = registries;
  }

  @Override
  public Phase phase() {
    return Phase.PLAN;
  }

  @Override
  public Future<PhaseResult> run(PhaseInput in) {
    JsonObject think = in.output(Phase.THINK);
    if ("smalltalk".equals(think.getString("intent"))) {
      return Future.succeededFuture(PhaseResult.rules(new JsonObject().put("calls", new JsonArray())
          .put("rationale", "small talk: no tool needed"), "no tools for small talk"));
    }
    return LlmFirst.run(llm, in, phase(), () -> withLlm(in), () -> Future.succeededFuture(rules(in)));
  }

  PhaseResult rules(PhaseInput in) {
    JsonObject think = in.output(Phase.THINK);
    JsonObject refinement = in.args().getJsonObject("refinement");
    boolean replan = in.args().getBoolean("replan", false);
    int attempt = refinement == null ? 0 : refinement.getInteger("attempt", 1);
    String query;
    if (refinement != null && refinement.getString("query") != null
        && !Reformulations.tried(in).contains(refinement.getString("query").toLowerCase(java.util.Locale.ROOT).trim())) {
      query = refinement.getString("query");
    } else if (refinement != null || replan) {
      query = Reformulations.next(in);
    } else {
      query = think.getString("query", in.question());
    }
    Profile p = in.profile();
    int topK = p.limits().topK() * (attempt >= 2 ? 2 : 1);
    JsonObject params = new JsonObject().put("query", query);
    if (in.run().input().namespace() != null) {
      params.put("namespace", in.run().input().namespace());
    }
    JsonObject filters = think.getJsonObject("filters", new JsonObject());
    FailedSearch failed = replan ? FailedSearch.of(in) : FailedSearch.NONE;
    if (failed.hadFilters() || attempt >= 2) {
      // a search with filters failed, or a second refinement: search without the proposed filters, except the request's
      filters = in.run().input().filters().copy();
    }
    if (!filters.isEmpty()) {
      params.put("filters", filters);
    }
    if (failed.timedOut()) {
      topK = Math.max(3, topK / 2); // a smaller search after a timeout
    }
    params.put("topK", topK);
    if (attempt >= 1 || replan) {
      params.put("selfQuery", false);
    }
    JsonObject out = new JsonObject().put("calls", new JsonArray().add(new JsonObject().put("tool", "knowledge_search")
        .put("params", params)));
    addFollowUp(out, in);
    String why = attempt > 0 ? "refinement " + attempt + ": search again with '" + query + "'"
        : replan ? "re-plan after failed tool calls (" + failed.summary() + "): search with '" + query + "'"
        + (failed.hadFilters() ? " without the proposed filters" : "") + (failed.timedOut() ? ", fewer hits" : "")
        : "search the knowledge base for '" + query + "', then read the neighbours of the top hits";
    out.put("rationale", why);
    return PhaseResult.rules(withTried(out, in, out.getJsonArray("calls")), why);
  }

  /** What the failed calls of the last Act returned: whether they had filters, whether they timed out. */
  private record FailedSearch(boolean hadFilters, boolean timedOut, String summary) {

    static final FailedSearch NONE = new FailedSearch(false, false, "");

    static FailedSearch of(PhaseInput in) {
      boolean filters = false;
      boolean timeout = false;
      java.util.List<String> errors = new java.util.ArrayList<>();
      for (Object o : in.run().evidence()) {
        if (o instanceof JsonObject e && !e.getBoolean("success", true)) {
          JsonObject params = e.getJsonObject("params", new JsonObject());
          filters |= params.getJsonObject("filters") != null && !params.getJsonObject("filters").isEmpty();
          String err = String.valueOf(e.getString("error"));
          timeout |= err.toLowerCase(java.util.Locale.ROOT).contains("timed out") || err.contains("timeout");
          errors.add(e.getString("tool") + ": " + err);
        }
      }
      return new FailedSearch(filters, timeout, errors.isEmpty() ? "no details" : String.join("; ", errors));
    }
  }

  /** Adds the queries of {@code calls} to the ones earlier plans of this run tried. */
  private static JsonObject withTried(JsonObject out, PhaseInput in, JsonArray calls) {
    JsonArray tried = in.output(Phase.PLAN).getJsonArray("tried", new JsonArray()).copy();
    for (Object c : calls) {
      if (c instanceof JsonObject call && call.getJsonObject("params", new JsonObject()).getString("query") != null) {
        tried.add(call.getJsonObject("params").getString("query"));
      }
    }
    return out.put("tried", tried);
  }

  private void addFollowUp(JsonObject out, PhaseInput in) {
    ToolRegistry tools = registries.apply(in.profile());
    if (tools.has("get_chunk_neighbours") && in.profile().limits().neighbourHits() > 0) {
      out.put("followUp", new JsonObject().put("tool", "get_chunk_neighbours")
          .put("topHits", in.profile().limits().neighbourHits()).put("before", 1).put("after", 1));
    }
  }

  static final JsonObject SCHEMA = new JsonObject().put("type", "object")
      .put("required", new JsonArray().add("calls"))
      .put("properties", new JsonObject()
          .put("rationale", new JsonObject().put("type", "string"))
          .put("calls", new JsonObject().put("type", "array").put("items", new JsonObject().put("type", "object")
              .put("required", new JsonArray().add("tool"))
              .put("properties", new JsonObject().put("tool", new JsonObject().put("type", "string"))
                  .put("params", new JsonObject().put("type", "object"))))));

  private Future<PhaseResult> withLlm(PhaseInput in) {
    ToolRegistry tools = registries.apply(in.profile());
    JsonArray toolList = new JsonArray();
    tools.all().forEach(t -> toolList.add(new JsonObject().put("name", t.name()).put("description", t.description())
        .put("parameters", t.schema())));
    JsonObject context = new JsonObject()
        .put("question", in.question())
        .put("namespace", in.run().input().namespace())
        .put("analysis", in.output(Phase.THINK))
        .put("refinement", in.args().getJsonObject("refinement"))
        .put("replan", in.args().getBoolean("replan", false))
        .put("alreadyTried", in.output(Phase.PLAN).getJsonArray("tried", new JsonArray()))
        .put("tools", toolList);
    return new StructuredOutput(llm).generateWithUsage(List.of(ChatMessage.system(in.profile().prompts().plan()),
        ChatMessage.user(context.encodePrettily())), SCHEMA).map(res -> {
      JsonObject j = res.value();
      JsonArray calls = new JsonArray();
      for (Object o : j.getJsonArray("calls", new JsonArray())) {
        if (o instanceof JsonObject c && tools.has(c.getString("tool"))
            && calls.size() < in.profile().limits().maxToolCalls()) {
          Object params = c.getValue("params");
          JsonObject ps = params instanceof JsonObject po ? po : new JsonObject();
          if ("knowledge_search".equals(c.getString("tool")) && in.run().input().namespace() != null) {
            ps.put("namespace", in.run().input().namespace());
          }
          calls.add(new JsonObject().put("tool", c.getString("tool")).put("params", ps));
        }
      }
      if (calls.isEmpty()) {
        throw new IllegalArgumentException("the plan has no usable tool call");
      }
      JsonObject out = new JsonObject().put("calls", calls).put("rationale", j.getString("rationale", ""));
      addFollowUp(out, in);
      return PhaseResult.llm(withTried(out, in, calls), res.usage(), "LLM plan: " + out.getString("rationale"));
    });
  }
}
