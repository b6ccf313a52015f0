package dev.argus.citations;

/**
 * One parsed citation of a decision's reason. Three forms, written in square brackets:
 * {@code [source:tool:index]} (an evidence item of the run), {@code [entity:TYPE:ID]} (a graph entity) and
 * {@code [rel:ID]} (a graph relation). {@link #text()} gives back the canonical written form.
 */
public sealed interface Citation {

  String text();

  /** {@code [source:tool:index]}: evidence item {@code index} of a call to {@code tool}. */
  record Source(String tool, int index) implements Citation {
    @Override
    public String text() {
      return "[source:" + tool + ":" + index + "]";
    }
  }

  /** {@code [entity:TYPE:ID]}: the graph entity {@code id} of type {@code type}. */
  record Entity(String type, String id) implements Citation {
    @Override
    public String text() {
      return "[entity:" + type + ":" + id + "]";
    }
  }

  /** {@code [rel:ID]}: the graph relation {@code id}. */
  record Relation(String id) implements Citation {
    @Override
    public String text() {
      return "[rel:" + id + "]";
    }
  }
}
