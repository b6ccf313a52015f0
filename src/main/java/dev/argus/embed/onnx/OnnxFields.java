package dev.argus.embed.onnx;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.UnknownFieldSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The field numbers of {@code onnx.proto} that {@link OnnxModel}, {@link OnnxNode} and {@link OnnxInitializer}
 * read and write, and the helpers for protobuf's schema-less {@link UnknownFieldSet}.
 */
final class OnnxFields {

  // ModelProto
  static final int MODEL_GRAPH = 7;
  static final int MODEL_OPSET_IMPORT = 8;
  // OperatorSetIdProto
  static final int OPSET_DOMAIN = 1;
  static final int OPSET_VERSION = 2;
  // GraphProto
  static final int GRAPH_NODE = 1;
  static final int GRAPH_INITIALIZER = 5;
  static final int GRAPH_INPUT = 11;
  static final int GRAPH_OUTPUT = 12;
  static final int GRAPH_VALUE_INFO = 13;
  // ValueInfoProto
  static final int VALUE_NAME = 1;
  // NodeProto
  static final int NODE_INPUT = 1;
  static final int NODE_OUTPUT = 2;
  static final int NODE_NAME = 3;
  static final int NODE_OP_TYPE = 4;
  static final int NODE_ATTRIBUTE = 5;
  static final int NODE_DOMAIN = 7;
  // AttributeProto
  static final int ATTR_NAME = 1;
  static final int ATTR_F = 2;
  static final int ATTR_I = 3;
  static final int ATTR_INTS = 8;
  static final int ATTR_TYPE = 20;
  static final int ATTR_TYPE_FLOAT = 1;
  static final int ATTR_TYPE_INT = 2;
  // TensorProto
  static final int TENSOR_DIMS = 1;
  static final int TENSOR_DATA_TYPE = 2;
  static final int TENSOR_FLOAT_DATA = 4;
  static final int TENSOR_INT32_DATA = 5;
  static final int TENSOR_INT64_DATA = 7;
  static final int TENSOR_NAME = 8;
  static final int TENSOR_RAW_DATA = 9;
  // TensorProto.DataType
  static final int FLOAT = 1;
  static final int INT8 = 3;
  static final int INT32 = 6;
  static final int INT64 = 7;

  private OnnxFields() {
  }

  static ByteString single(UnknownFieldSet message, int field) {
    List<ByteString> values = message.getField(field).getLengthDelimitedList();
    if (values.isEmpty()) {
      throw new IllegalArgumentException("not an ONNX model: field " + field + " is missing");
    }
    return values.get(values.size() - 1);
  }

  static String string(UnknownFieldSet message, int field) {
    List<ByteString> values = message.getField(field).getLengthDelimitedList();
    return values.isEmpty() ? "" : values.get(values.size() - 1).toStringUtf8();
  }

  static List<String> strings(UnknownFieldSet message, int field) {
    List<String> out = new ArrayList<>();
    for (ByteString b : message.getField(field).getLengthDelimitedList()) {
      out.add(b.toStringUtf8());
    }
    return out;
  }

  static UnknownFieldSet.Field lengthDelimited(String value) {
    return lengthDelimited(ByteString.copyFromUtf8(value));
  }

  static UnknownFieldSet.Field varint(long value) {
    return UnknownFieldSet.Field.newBuilder().addVarint(value).build();
  }

  static UnknownFieldSet.Field lengthDelimited(ByteString value) {
    return UnknownFieldSet.Field.newBuilder().addLengthDelimited(value).build();
  }

  static UnknownFieldSet.Field strings(List<String> values) {
    UnknownFieldSet.Field.Builder f = UnknownFieldSet.Field.newBuilder();
    values.forEach(v -> f.addLengthDelimited(ByteString.copyFromUtf8(v)));
    return f.build();
  }

  /** The values of a repeated integer field, written packed or one by one. */
  static List<Long> varints(UnknownFieldSet message, int field) {
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
}
