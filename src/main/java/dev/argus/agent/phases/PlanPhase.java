package dev.argus.agent.phases;

import dev.argus.agent.profile.Profile;
import dev.argus.agent.tools.ToolRegistry;
import dev.argus.llm.LlmClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/**
 * Plan: which tools to call. Output {@code {calls: [{tool, params}], followUp?, rationale}}. Rules: one
 * {@code knowledge_search} with the (possibly reformulated) query, the namespace and the filters, then
 * {@code get_chunk_neighbours} for the top hits ({@code followUp}, run by Act once the search returned). The planner
 * never sees retrieved text, so documents cannot steer which tools run.
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
    int attempt = refinement == null ? 0 : refinement.getInteger("attempt", 1);
    String query = refinement != null ? refinement.getString("query") : think.getString("query",
        in.run().input().question());
    Profile p = in.profile();
    JsonObject params = new JsonObject().put("query", query).put("topK", p.limits().topK() * (attempt >= 2 ? 2 : 1));
    if (in.run().input().namespace() != null) {
      params.put("namespace", in.run().input().namespace());
    }
    JsonObject filters = think.getJsonObject("filters", new JsonObject());
    if (!filters.isEmpty()) {
      params.put("filters", filters);
    }
    if (attempt >= 1) {
      params.put("selfQuery", false);
    }
    JsonObject out = new JsonObject().put("calls", new JsonArray().add(new JsonObject().put("tool", "knowledge_search")
        .put("params", params)));
    addFollowUp(out, in);
    String why = attempt > 0 ? "refinement " + attempt + ": search again with '" + query + "'"
        : in.args().getBoolean("replan", false) ? "re-plan after failed tool calls: search again"
        : "search the knowledge base for '" + query + "', then read the neighbours of the top hits";
    out.put("rationale", why);
    return PhaseResult.rules(out, why);
  }

  private void addFollowUp(JsonObject out, PhaseInput in) {
    ToolRegistry tools = registries.apply(in.profile());
    if (tools.has("get_chunk_neighbours") && in.profile().limits().neighbourHits() > 0) {
      out.put("followUp", new JsonObject().put("tool", "get_chunk_neighbours")
          .put("topHits", in.profile().limits().neighbourHits()).put("before", 1).put("after", 1));
    }
  }

  private Future<PhaseResult> withLlm(PhaseInput in) {
    ToolRegistry tools = registries.apply(in.profile());
    JsonArray toolList = new JsonArray();
    tools.all().forEach(t -> toolList.add(new JsonObject().put("name", t.name()).put("description", t.description())
        .put("parameters", t.schema())));
    JsonObject context = new JsonObject()
        .put("question", in.run().input().question())
        .put("namespace", in.run().input().namespace())
        .put("analysis", in.output(Phase.THINK))
        .put("refinement", in.args().getJsonObject("refinement"))
        .put("replan", in.args().getBoolean("replan", false))
        .put("tools", toolList);
    return LlmFirst.askJson(llm, in.profile().prompts().plan(), context.encodePrettily()).map(res -> {
      JsonObject j = LlmFirst.parseObject(res.content());
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
      return PhaseResult.llm(out, res.usage(), "LLM plan: " + out.getString("rationale"));
    });
  }
}
