package dev.argus.embed.onnx;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.argus.embed.onnx.OnnxFields.*;

/**
 * An ONNX model ({@code ModelProto}) read with protobuf's schema-less parser, editable where a graph rewrite needs
 * it: the graph's nodes and initializers. Every other field (graph inputs and outputs, opsets, metadata, a node's
 * doc string) is written back as it was read. Field numbers are those of {@code onnx.proto}.
 */
final class OnnxModel {

  private final UnknownFieldSet model;
  private final UnknownFieldSet graph;
  private final List<OnnxNode> nodes = new ArrayList<>();
  private final Map<String, OnnxInitializer> initializers = new HashMap<>();
  private final List<String> graphInputs = new ArrayList<>();
  private final List<String> graphOutputs = new ArrayList<>();

  private OnnxModel(UnknownFieldSet model, UnknownFieldSet graph) {
    this.model = model;
    this.graph = graph;
  }

  static OnnxModel parse(byte[] bytes) {
    try {
      UnknownFieldSet model = UnknownFieldSet.parseFrom(bytes);
      UnknownFieldSet graph = UnknownFieldSet.parseFrom(single(model, MODEL_GRAPH));
      OnnxModel m = new OnnxModel(model, graph);
      for (ByteString node : graph.getField(GRAPH_NODE).getLengthDelimitedList()) {
        m.nodes.add(OnnxNode.read(UnknownFieldSet.parseFrom(node)));
      }
      for (ByteString tensor : graph.getField(GRAPH_INITIALIZER).getLengthDelimitedList()) {
        OnnxInitializer t = OnnxInitializer.read(UnknownFieldSet.parseFrom(tensor));
        m.initializers.put(t.name(), t);
      }
      for (ByteString value : graph.getField(GRAPH_INPUT).getLengthDelimitedList()) {
        m.graphInputs.add(string(UnknownFieldSet.parseFrom(value), VALUE_NAME));
      }
      for (ByteString value : graph.getField(GRAPH_OUTPUT).getLengthDelimitedList()) {
        m.graphOutputs.add(string(UnknownFieldSet.parseFrom(value), VALUE_NAME));
      }
      return m;
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("not an ONNX model: " + e.getMessage(), e);
    }
  }

  /** The nodes in graph order; edit the list in place (it is written back as it stands). */
  List<OnnxNode> nodes() {
    return nodes;
  }

  OnnxInitializer initializer(String name) {
    return initializers.get(name);
  }

  void addInitializer(OnnxInitializer tensor) {
    initializers.put(tensor.name(), tensor);
  }

  /** Replaces each key of {@code replace} by its value, in place, and drops the nodes in {@code remove}. */
  void replaceNodes(Map<OnnxNode, OnnxNode> replace, Set<OnnxNode> remove) {
    List<OnnxNode> kept = new ArrayList<>(nodes.size());
    for (OnnxNode n : nodes) {
      if (!remove.contains(n)) {
        kept.add(replace.getOrDefault(n, n));
      }
    }
    nodes.clear();
    nodes.addAll(kept);
  }

  List<String> graphInputs() {
    return graphInputs;
  }

  List<String> graphOutputs() {
    return graphOutputs;
  }

  /**
   * The model as bytes: nodes and initializers as they stand now, initializers no node reads left out, shape
   * annotations of intermediate values dropped (ONNX Runtime infers them again), and {@code domain} among the
   * opset imports.
   */
  byte[] toBytes(String domain) {
    Set<String> read = new HashSet<>(graphInputs); // an initializer that is also a graph input stays
    UnknownFieldSet.Field.Builder nodeField = UnknownFieldSet.Field.newBuilder();
    for (OnnxNode n : nodes) {
      read.addAll(n.inputs());
      nodeField.addLengthDelimited(n.write().toByteString());
    }
    UnknownFieldSet.Field.Builder initField = UnknownFieldSet.Field.newBuilder();
    for (OnnxInitializer t : initializers.values()) {
      if (read.contains(t.name())) {
        initField.addLengthDelimited(t.write().toByteString());
      }
    }
    UnknownFieldSet newGraph = UnknownFieldSet.newBuilder(graph)
        .clearField(GRAPH_NODE).addField(GRAPH_NODE, nodeField.build())
        .clearField(GRAPH_INITIALIZER).addField(GRAPH_INITIALIZER, initField.build())
        .clearField(GRAPH_VALUE_INFO)
        .build();
    UnknownFieldSet.Builder out = UnknownFieldSet.newBuilder(model)
        .clearField(MODEL_GRAPH)
        .addField(MODEL_GRAPH, UnknownFieldSet.Field.newBuilder().addLengthDelimited(newGraph.toByteString()).build());
    if (!importsDomain(domain)) {
      UnknownFieldSet opset = UnknownFieldSet.newBuilder()
          .addField(OPSET_DOMAIN, lengthDelimited(domain))
          .addField(OPSET_VERSION, varint(1))
          .build();
      out.mergeField(MODEL_OPSET_IMPORT, lengthDelimited(opset.toByteString()));
    }
    return out.build().toByteArray();
  }

  private boolean importsDomain(String domain) {
    try {
      for (ByteString opset : model.getField(MODEL_OPSET_IMPORT).getLengthDelimitedList()) {
        if (domain.equals(string(UnknownFieldSet.parseFrom(opset), OPSET_DOMAIN))) {
          return true;
        }
      }
      return false;
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("not an ONNX model: " + e.getMessage(), e);
    }
  }
}
