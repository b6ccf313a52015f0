package dev.argus.embed.onnx;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static dev.argus.embed.onnx.OnnxFields.*;

/** An initializer: name, element type, shape and little-endian bytes. */
record OnnxInitializer(String name, int dataType, long[] dims, ByteBuffer data, UnknownFieldSet source) {

  OnnxInitializer(String name, int dataType, long[] dims, ByteBuffer data) {
    this(name, dataType, dims, data, null);
  }

  static OnnxInitializer read(UnknownFieldSet fields) {
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
    return new OnnxInitializer(name, type, dims, data.order(ByteOrder.LITTLE_ENDIAN), fields);
  }

  static OnnxInitializer ofFloats(String name, long[] dims, float[] values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : values) {
      b.putFloat(v);
    }
    return new OnnxInitializer(name, FLOAT, dims, b.flip());
  }

  static OnnxInitializer ofBytes(String name, long[] dims, byte[] values) {
    return new OnnxInitializer(name, INT8, dims, ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN));
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
        .addField(TENSOR_DATA_TYPE, varint(dataType))
        .addField(TENSOR_NAME, lengthDelimited(name))
        .addField(TENSOR_RAW_DATA, lengthDelimited(ByteString.copyFrom(data.duplicate())))
        .build();
  }
}
