package dev.argus.embed.onnx;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An ONNX model ({@code ModelProto}) read with protobuf's schema-less parser, editable where a graph rewrite needs
 * it: the graph's nodes and initializers. Every other field (graph inputs and outputs, opsets, metadata, a node's
 * doc string) is written back as it was read. Field numbers are those of {@code onnx.proto}.
 */
final class OnnxModel {

  // ModelProto
  private static final int MODEL_GRAPH = 7;
  private static final int MODEL_OPSET_IMPORT = 8;
  // OperatorSetIdProto
  private static final int OPSET_DOMAIN = 1;
  private static final int OPSET_VERSION = 2;
  // GraphProto
  private static final int GRAPH_NODE = 1;
  private static final int GRAPH_INITIALIZER = 5;
  private static final int GRAPH_INPUT = 11;
  private static final int GRAPH_OUTPUT = 12;
  private static final int GRAPH_VALUE_INFO = 13;
  // ValueInfoProto
  private static final int VALUE_NAME = 1;
  // NodeProto
  private static final int NODE_INPUT = 1;
  private static final int NODE_OUTPUT = 2;
  private static final int NODE_NAME = 3;
  private static final int NODE_OP_TYPE = 4;
  private static final int NODE_ATTRIBUTE = 5;
  private static final int NODE_DOMAIN = 7;
  // AttributeProto
  private static final int ATTR_NAME = 1;
  private static final int ATTR_F = 2;
  private static final int ATTR_I = 3;
  private static final int ATTR_INTS = 8;
  private static final int ATTR_TYPE = 20;
  private static final int ATTR_TYPE_FLOAT = 1;
  private static final int ATTR_TYPE_INT = 2;
  // TensorProto
  private static final int TENSOR_DIMS = 1;
  private static final int TENSOR_DATA_TYPE = 2;
  private static final int TENSOR_FLOAT_DATA = 4;
  private static final int TENSOR_INT32_DATA = 5;
  private static final int TENSOR_INT64_DATA = 7;
  private static final int TENSOR_NAME = 8;
  private static final int TENSOR_RAW_DATA = 9;

  static final int FLOAT = 1;
  static final int INT8 = 3;
  static final int INT32 = 6;
  static final int INT64 = 7;

  private final UnknownFieldSet model;
  private final UnknownFieldSet graph;
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, Tensor> initializers = new HashMap<>();
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
        m.nodes.add(Node.read(UnknownFieldSet.parseFrom(node)));
      }
      for (ByteString tensor : graph.getField(GRAPH_INITIALIZER).getLengthDelimitedList()) {
        Tensor t = Tensor.read(UnknownFieldSet.parseFrom(tensor));
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
  List<Node> nodes() {
    return nodes;
  }

  Tensor initializer(String name) {
    return initializers.get(name);
  }

  void addInitializer(Tensor tensor) {
    initializers.put(tensor.name(), tensor);
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
    for (Node n : nodes) {
      read.addAll(n.inputs());
      nodeField.addLengthDelimited(n.write().toByteString());
    }
    UnknownFieldSet.Field.Builder initField = UnknownFieldSet.Field.newBuilder();
    for (Tensor t : initializers.values()) {
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
          .addField(OPSET_DOMAIN, lengthDelimited(ByteString.copyFromUtf8(domain)))
          .addField(OPSET_VERSION, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
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

  private static ByteString single(UnknownFieldSet message, int field) {
    List<ByteString> values = message.getField(field).getLengthDelimitedList();
    if (values.isEmpty()) {
      throw new IllegalArgumentException("not an ONNX model: field " + field + " is missing");
    }
    return values.get(values.size() - 1);
  }

  private static String string(UnknownFieldSet message, int field) {
    List<ByteString> values = message.getField(field).getLengthDelimitedList();
    return values.isEmpty() ? "" : values.get(values.size() - 1).toStringUtf8();
  }

  private static List<String> strings(UnknownFieldSet message, int field) {
    List<String> out = new ArrayList<>();
    for (ByteString b : message.getField(field).getLengthDelimitedList()) {
      out.add(b.toStringUtf8());
    }
    return out;
  }

  private static UnknownFieldSet.Field lengthDelimited(ByteString value) {
    return UnknownFieldSet.Field.newBuilder().addLengthDelimited(value).build();
  }

  private static UnknownFieldSet.Field strings(List<String> values) {
    UnknownFieldSet.Field.Builder f = UnknownFieldSet.Field.newBuilder();
    values.forEach(v -> f.addLengthDelimited(ByteString.copyFromUtf8(v)));
    return f.build();
  }

  /** The values of a repeated integer field, written packed or one by one. */
  private static List<Long> varints(UnknownFieldSet message, int field) {
    UnknownFieldSet.Field f = message.getField(field);
    List<Long> out = new ArrayList<>(f.getVarintList());
    for (ByteString packed : f.getLengthDelimitedList()) {
      try {
        CodedInputStream in = packed.newCodedInput();
        while (!in.isAtEnd()) {
          out.add(in.readInt64());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** One node: what the rewrites read and change; its other fields (doc string, ...) are kept as read. */
  static final class Node {
    private final UnknownFieldSet fields;
    private final String opType;
    private final String domain;
    private final List<String> inputs;
    private final List<String> outputs;
    private final List<UnknownFieldSet> attributes;

    private Node(UnknownFieldSet fields, String opType, String domain, List<String> inputs, List<String> outputs,
                 List<UnknownFieldSet> attributes) {
      this.fields = fields;
      this.opType = opType;
      this.domain = domain;
      this.inputs = inputs;
      this.outputs = outputs;
      this.attributes = attributes;
    }

    static Node read(UnknownFieldSet fields) throws InvalidProtocolBufferException {
      List<UnknownFieldSet> attributes = new ArrayList<>();
      for (ByteString a : fields.getField(NODE_ATTRIBUTE).getLengthDelimitedList()) {
        attributes.add(UnknownFieldSet.parseFrom(a));
      }
      return new Node(fields, string(fields, NODE_OP_TYPE), string(fields, NODE_DOMAIN),
          strings(fields, NODE_INPUT), strings(fields, NODE_OUTPUT), attributes);
    }

    /** A new node of the {@code com.microsoft} or default domain, without attributes. */
    static Node create(String name, String domain, String opType, List<String> inputs, List<String> outputs) {
      UnknownFieldSet fields = UnknownFieldSet.newBuilder()
          .addField(NODE_NAME, lengthDelimited(ByteString.copyFromUtf8(name)))
          .build();
      return new Node(fields, opType, domain, new ArrayList<>(inputs), new ArrayList<>(outputs), new ArrayList<>());
    }

    String opType() {
      return opType;
    }

    String domain() {
      return domain;
    }

    boolean is(String domain, String opType) {
      return this.domain.equals(domain) && this.opType.equals(opType);
    }

    /** The inputs, in place: {@code ""} stands for an optional input left out. */
    List<String> inputs() {
      return inputs;
    }

    String input(int i) {
      return i < inputs.size() ? inputs.get(i) : "";
    }

    List<String> outputs() {
      return outputs;
    }

    String output() {
      return outputs.get(0);
    }

    Long intAttribute(String name) {
      UnknownFieldSet a = attribute(name);
      return a == null || a.getField(ATTR_I).getVarintList().isEmpty() ? null : a.getField(ATTR_I).getVarintList().get(0);
    }

    Float floatAttribute(String name) {
      UnknownFieldSet a = attribute(name);
      return a == null || a.getField(ATTR_F).getFixed32List().isEmpty()
          ? null : Float.intBitsToFloat(a.getField(ATTR_F).getFixed32List().get(0));
    }

    List<Long> intsAttribute(String name) {
      UnknownFieldSet a = attribute(name);
      return a == null ? null : varints(a, ATTR_INTS);
    }

    Node withInt(String name, long value) {
      attributes.add(UnknownFieldSet.newBuilder()
          .addField(ATTR_NAME, lengthDelimited(ByteString.copyFromUtf8(name)))
          .addField(ATTR_I, UnknownFieldSet.Field.newBuilder().addVarint(value).build())
          .addField(ATTR_TYPE, UnknownFieldSet.Field.newBuilder().addVarint(ATTR_TYPE_INT).build())
          .build());
      return this;
    }

    Node withFloat(String name, float value) {
      attributes.add(UnknownFieldSet.newBuilder()
          .addField(ATTR_NAME, lengthDelimited(ByteString.copyFromUtf8(name)))
          .addField(ATTR_F, UnknownFieldSet.Field.newBuilder().addFixed32(Float.floatToRawIntBits(value)).build())
          .addField(ATTR_TYPE, UnknownFieldSet.Field.newBuilder().addVarint(ATTR_TYPE_FLOAT).build())
          .build());
      return this;
    }

    private UnknownFieldSet attribute(String name) {
      for (UnknownFieldSet a : attributes) {
        if (name.equals(string(a, ATTR_NAME))) {
          return a;
        }
      }
      return null;
    }

    UnknownFieldSet write() {
      UnknownFieldSet.Field.Builder attrs = UnknownFieldSet.Field.newBuilder();
      attributes.forEach(a -> attrs.addLengthDelimited(a.toByteString()));
      UnknownFieldSet.Builder b = UnknownFieldSet.newBuilder(fields)
          .clearField(NODE_INPUT).addField(NODE_INPUT, strings(inputs))
          .clearField(NODE_OUTPUT).addField(NODE_OUTPUT, strings(outputs))
          .clearField(NODE_OP_TYPE).addField(NODE_OP_TYPE, lengthDelimited(ByteString.copyFromUtf8(opType)))
          .clearField(NODE_ATTRIBUTE).addField(NODE_ATTRIBUTE, attrs.build())
          .clearField(NODE_DOMAIN);
      if (!domain.isEmpty()) {
        b.addField(NODE_DOMAIN, lengthDelimited(ByteString.copyFromUtf8(domain)));
      }
      return b.build();
    }

    @Override
    public String toString() {
      return opType + inputs + "->" + outputs;
    }
  }

  /** An initializer: name, element type, shape and little-endian bytes. */
  record Tensor(String name, int dataType, long[] dims, ByteBuffer data, UnknownFieldSet source) {

    Tensor(String name, int dataType, long[] dims, ByteBuffer data) {
      this(name, dataType, dims, data, null);
    }

    static Tensor read(UnknownFieldSet fields) {
      String name = string(fields, TENSOR_NAME);
      int type = fields.getField(TENSOR_DATA_TYPE).getVarintList().isEmpty()
          ? 0 : fields.getField(TENSOR_DATA_TYPE).getVarintList().get(0).intValue();
      long[] dims = varints(fields, TENSOR_DIMS).stream().mapToLong(Long::longValue).toArray();
      List<ByteString> raw = fields.getField(TENSOR_RAW_DATA).getLengthDelimitedList();
      ByteBuffer data;
      if (!raw.isEmpty()) {
        data = raw.get(raw.size() - 1).asReadOnlyByteBuffer();
      } else if (type == FLOAT) {
        UnknownFieldSet.Field f = fields.getField(TENSOR_FLOAT_DATA);
        ByteBuffer b = ByteBuffer.allocate(4 * (int) count(dims)).order(ByteOrder.LITTLE_ENDIAN);
        f.getFixed32List().forEach(b::putInt);
        f.getLengthDelimitedList().forEach(packed -> b.put(packed.asReadOnlyByteBuffer()));
        data = b.flip();
      } else if (type == INT64 || type == INT32 || type == INT8) {
        List<Long> values = varints(fields, type == INT64 ? TENSOR_INT64_DATA : TENSOR_INT32_DATA);
        int width = type == INT64 ? 8 : type == INT32 ? 4 : 1;
        ByteBuffer b = ByteBuffer.allocate(width * values.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
          switch (width) {
            case 8 -> b.putLong(v);
            case 4 -> b.putInt((int) v);
            default -> b.put((byte) v);
          }
        }
        data = b.flip();
      } else {
        data = ByteBuffer.allocate(0);
      }
      return new Tensor(name, type, dims, data.order(ByteOrder.LITTLE_ENDIAN), fields);
    }

    static Tensor ofFloats(String name, long[] dims, float[] values) {
      ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
      for (float v : values) {
        b.putFloat(v);
      }
      return new Tensor(name, FLOAT, dims, b.flip());
    }

    static Tensor ofBytes(String name, long[] dims, byte[] values) {
      return new Tensor(name, INT8, dims, ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN));
    }

    static long count(long[] dims) {
      long n = 1;
      for (long d : dims) {
        n *= d;
      }
      return n;
    }

    long count() {
      return count(dims);
    }

    float[] floats() {
      ByteBuffer b = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      float[] out = new float[b.remaining() / 4];
      b.asFloatBuffer().get(out);
      return out;
    }

    byte[] bytes() {
      ByteBuffer b = data.duplicate();
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    }

    long[] longs() {
      ByteBuffer b = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      long[] out = new long[b.remaining() / 8];
      b.asLongBuffer().get(out);
      return out;
    }

    /** The tensor as read (every field kept), or as built. */
    UnknownFieldSet write() {
      if (source != null) {
        return source;
      }
      UnknownFieldSet.Field.Builder d = UnknownFieldSet.Field.newBuilder();
      for (long dim : dims) {
        d.addVarint(dim);
      }
      return UnknownFieldSet.newBuilder()
          .addField(TENSOR_DIMS, d.build())
          .addField(TENSOR_DATA_TYPE, UnknownFieldSet.Field.newBuilder().addVarint(dataType).build())
          .addField(TENSOR_NAME, lengthDelimited(ByteString.copyFromUtf8(name)))
          .addField(TENSOR_RAW_DATA, lengthDelimited(ByteString.copyFrom(data.duplicate())))
          .build();
    }
  }
}
