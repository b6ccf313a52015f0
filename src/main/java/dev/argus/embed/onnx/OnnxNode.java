package dev.argus.embed.onnx;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;

import java.util.ArrayList;
import java.util.List;

import static dev.argus.embed.onnx.OnnxFields.*;

/** One node: what the rewrites read and change; its other fields (doc string, ...) are kept as read. */
final class OnnxNode {

  private final UnknownFieldSet fields;
  private final String opType;
  private final String domain;
  private final List<String> inputs;
  private final List<String> outputs;
  private final List<UnknownFieldSet> attributes;

  private OnnxNode(UnknownFieldSet fields, String opType, String domain, List<String> inputs, List<String> outputs,
                   List<UnknownFieldSet> attributes) {
    this.fields = fields;
    this.opType = opType;
    this.domain = domain;
    this.inputs = inputs;
    this.outputs = outputs;
    this.attributes = attributes;
  }

  static OnnxNode read(UnknownFieldSet fields) throws InvalidProtocolBufferException {
    List<UnknownFieldSet> attributes = new ArrayList<>();
    for (ByteString a : fields.getField(NODE_ATTRIBUTE).getLengthDelimitedList()) {
      attributes.add(UnknownFieldSet.parseFrom(a));
    }
    return new OnnxNode(fields, string(fields, NODE_OP_TYPE), string(fields, NODE_DOMAIN),
        strings(fields, NODE_INPUT), strings(fields, NODE_OUTPUT), attributes);
  }

  /** A new node of the {@code com.microsoft} or default domain, without attributes. */
  static OnnxNode create(String name, String domain, String opType, List<String> inputs, List<String> outputs) {
    UnknownFieldSet fields = UnknownFieldSet.newBuilder()
        .addField(NODE_NAME, lengthDelimited((name)))
        .build();
    return new OnnxNode(fields, opType, domain, new ArrayList<>(inputs), new ArrayList<>(outputs), new ArrayList<>());
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

  long intAttribute(String name, long fallback) {
    Long value = intAttribute(name);
    return value == null ? fallback : value;
  }

  /** Whether the {@code axis} attribute names the last of {@code rank} axes (or is absent: ONNX's -1 default). */
  boolean lastAxis(int rank) {
    long axis = intAttribute("axis", -1);
    return axis == -1 || axis == rank - 1;
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

  OnnxNode withInt(String name, long value) {
    attributes.add(UnknownFieldSet.newBuilder()
        .addField(ATTR_NAME, lengthDelimited((name)))
        .addField(ATTR_I, varint(value))
        .addField(ATTR_TYPE, varint(ATTR_TYPE_INT))
        .build());
    return this;
  }

  OnnxNode withFloat(String name, float value) {
    attributes.add(UnknownFieldSet.newBuilder()
        .addField(ATTR_NAME, lengthDelimited((name)))
        .addField(ATTR_F, UnknownFieldSet.Field.newBuilder().addFixed32(Float.floatToRawIntBits(value)).build())
        .addField(ATTR_TYPE, varint(ATTR_TYPE_FLOAT))
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
        .clearField(NODE_OP_TYPE).addField(NODE_OP_TYPE, lengthDelimited((opType)))
        .clearField(NODE_ATTRIBUTE).addField(NODE_ATTRIBUTE, attrs.build())
        .clearField(NODE_DOMAIN);
    if (!domain.isEmpty()) {
      b.addField(NODE_DOMAIN, lengthDelimited((domain)));
    }
    return b.build();
  }

  @Override
  public String toString() {
    return opType + inputs + "->" + outputs;
  }
}
