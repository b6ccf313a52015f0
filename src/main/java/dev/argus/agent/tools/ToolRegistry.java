package dev.argus.agent.tools;

import dev.argus.llm.ToolSpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tools one profile may use, by name. */
public final class ToolRegistry {

  private final Map<String, Tool> tools = new LinkedHashMap<>();

  public ToolRegistry(Collection<Tool> all, List<String> allowed) {
    for (Tool t : all) {
      if (allowed.contains(t.name())) {
        tools.put(t.name(), t);
      }
    }
  }

  public Tool get(String name) {
    return tools.get(name);
  }

  public boolean has(String name) {
    return tools.containsKey(name);
  }

  public Collection<Tool> all() {
    return tools.values();
  }

  /** The tools as offered to an LLM planner. */
  public List<ToolSpec> specs() {
    List<ToolSpec> out = new ArrayList<>();
    for (Tool t : tools.values()) {
      out.add(new ToolSpec(t.name(), t.description(), t.schema()));
    }
    return out;
  }
}
