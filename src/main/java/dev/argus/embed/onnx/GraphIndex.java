package dev.argus.embed.onnx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Who writes and who reads each value of a graph, as its nodes stand when the index is built. */
final class GraphIndex {

  private final OnnxModel model;
  private final Map<String, OnnxNode> producers = new HashMap<>();
  private final Map<String, List<OnnxNode>> readers = new HashMap<>();

  private GraphIndex(OnnxModel model) {
    this.model = model;
  }

  static GraphIndex of(OnnxModel model) {
    GraphIndex index = new GraphIndex(model);
    for (OnnxNode n : model.nodes()) {
      for (String o : n.outputs()) {
        index.producers.put(o, n);
      }
      for (String in : n.inputs()) {
        index.readers.computeIfAbsent(in, k -> new ArrayList<>()).add(n);
      }
    }
    return index;
  }

  /** The node writing {@code value}, or null (a graph input, an initializer, or nothing). */
  OnnxNode producer(String value) {
    return producers.get(value);
  }

  List<OnnxNode> readers(String value) {
    return readers.getOrDefault(value, List.of());
  }

  /** The single node reading {@code value}, or null if there are several, none, or it is a graph output. */
  OnnxNode only(String value) {
    List<OnnxNode> r = readers(value);
    return r.size() == 1 && !model.graphOutputs().contains(value) ? r.get(0) : null;
  }

  /** The initializer among {@code node}'s two inputs, the other being {@code value}; null if there is none. */
  OnnxInitializer constantOperand(OnnxNode node, String value) {
    if (node.inputs().size() != 2) {
      return null;
    }
    if (node.input(1).equals(value)) {
      return model.initializer(node.input(0));
    }
    return node.input(0).equals(value) ? model.initializer(node.input(1)) : null;
  }
}
