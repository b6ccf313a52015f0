package dev.argus.embed.onnx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.argus.embed.onnx.BertGraphFusion.MS;
import static dev.argus.embed.onnx.OnnxFields.FLOAT;
import static dev.argus.embed.onnx.OnnxFields.INT32;
import static dev.argus.embed.onnx.OnnxFields.INT64;
import static dev.argus.embed.onnx.OnnxFields.INT8;

/**
 * The attention rewrite of {@link BertGraphFusion}: the three quantized products of one quantized input (query, key,
 * value), their biases, the reshapes and transposes to heads, the scaled product, the mask, the softmax, the
 * weighted sum and the merge of the heads become one {@code QAttention}, whose weight is the three weights side by
 * side with their per-column scales, zero points and biases. Every part of the pattern is checked (operators,
 * attributes, weight shapes, a single reader of each intermediate value, the mask computed from the
 * {@code attention_mask} input); a block that differs anywhere is left alone.
 */
final class AttentionFusion {

  static final String MASK_INPUT = "attention_mask";
  private static final String MASK_INDEX = "argus_mask_index";

  private final OnnxModel model;
  private GraphIndex graph;

  AttentionFusion(OnnxModel model) {
    this.model = model;
  }

  /** The query, key or value branch of one attention block: product, bias, reshape to heads, transpose. */
  private record Branch(OnnxNode product, OnnxNode biasAdd, OnnxInitializer bias, OnnxNode reshape,
                        OnnxNode transpose, List<Long> perm) {
  }

  /** One recognised block: the new node, the node whose place (and output) it takes, and the nodes it drops. */
  private record Block(OnnxNode fused, OnnxNode merge, List<OnnxNode> dropped) {
  }

  /** Rewrites every attention block it recognises; returns how many. */
  int apply() {
    if (!model.graphInputs().contains(MASK_INPUT)) {
      return 0;
    }
    graph = GraphIndex.of(model);
    Map<OnnxNode, OnnxNode> replace = new IdentityHashMap<>();
    Set<OnnxNode> remove = Collections.newSetFromMap(new IdentityHashMap<>());
    int layer = 0;
    for (OnnxNode quantize : model.nodes()) {
      if (!quantize.is("", "DynamicQuantizeLinear") || quantize.outputs().size() < 3) {
        continue;
      }
      Block block = attentionBlock(quantize, layer);
      if (block != null) {
        replace.put(block.merge(), block.fused());
        remove.addAll(block.dropped());
        layer++;
      }
    }
    if (layer == 0) {
      return 0;
    }
    model.replaceNodes(replace, remove);
    model.nodes().add(0, OnnxNode.create(MASK_INDEX, "", "Cast", List.of(MASK_INPUT), List.of(MASK_INDEX))
        .withInt("to", INT32));
    return layer;
  }

  /** The attention block reading {@code quantize}'s output, or null if it is not one. */
  private Block attentionBlock(OnnxNode quantize, int layer) {
    List<OnnxNode> readers = graph.readers(quantize.output());
    if (readers.size() != 3) {
      return null;
    }
    List<Branch> branches = new ArrayList<>();
    for (OnnxNode product : readers) {
      Branch b = branch(product, quantize);
      if (b == null) {
        return null;
      }
      branches.add(b);
    }
    // Query and value go to [batch, heads, seq, head]; the key to [batch, heads, head, seq].
    OnnxNode scores = null;
    Branch query = null;
    Branch key = null;
    for (Branch b : branches) {
      OnnxNode next = graph.only(b.transpose().output());
      if (next != null && next.is(MS, "FusedMatMul") && b.perm().equals(List.of(0L, 2L, 1L, 3L))
          && next.input(0).equals(b.transpose().output())) {
        scores = next;
        query = b;
      }
    }
    if (scores == null) {
      return null;
    }
    for (Branch b : branches) {
      if (b != query && b.perm().equals(List.of(0L, 2L, 3L, 1L)) && scores.input(1).equals(b.transpose().output())
          && graph.only(b.transpose().output()) == scores) {
        key = b;
      }
    }
    Branch value = null;
    for (Branch b : branches) {
      if (b != query && b != key && b.perm().equals(List.of(0L, 2L, 1L, 3L))) {
        value = b;
      }
    }
    if (key == null || value == null) {
      return null;
    }
    long[] heads = model.initializer(query.reshape().input(1)).longs();
    long numHeads = heads[2];
    long headSize = heads[3];
    int hidden = (int) (numHeads * headSize);
    for (Branch b : branches) {
      long[] shape = model.initializer(b.reshape().input(1)).longs();
      OnnxInitializer w = model.initializer(b.product().input(1));
      if (shape[2] != numHeads || shape[3] != headSize || w.dims()[0] != hidden || w.dims()[1] != hidden
          || b.bias().count() != hidden) {
        return null;
      }
    }
    if (scores.intAttribute("transA", 0) != 0 || scores.intAttribute("transB", 0) != 0
        || scores.intAttribute("transBatchA", 0) != 0 || scores.intAttribute("transBatchB", 0) != 0) {
      return null;
    }
    Float alpha = scores.floatAttribute("alpha");
    if (alpha == null || Math.abs(alpha - 1.0 / Math.sqrt(headSize)) > 1e-6) {
      return null;
    }
    OnnxNode maskAdd = graph.only(scores.output());
    if (maskAdd == null || !maskAdd.is("", "Add") || !maskAdd.input(0).equals(scores.output())
        || !isMaskTerm(maskAdd.input(1))) {
      return null;
    }
    OnnxNode softmax = graph.only(maskAdd.output());
    if (softmax == null || !softmax.is("", "Softmax") || softmax.intAttribute("axis") == null
        || !softmax.lastAxis(4)) {
      return null;
    }
    OnnxNode weighted = graph.only(softmax.output());
    if (weighted == null || !weighted.is("", "MatMul") || !weighted.input(0).equals(softmax.output())
        || !weighted.input(1).equals(value.transpose().output()) || graph.only(value.transpose().output()) != weighted) {
      return null;
    }
    OnnxNode back = graph.only(weighted.output());
    if (back == null || !back.is("", "Transpose")
        || !List.of(0L, 2L, 1L, 3L).equals(back.intsAttribute("perm"))) {
      return null;
    }
    OnnxNode merge = graph.only(back.output());
    if (merge == null || !merge.is("", "Reshape") || model.initializer(merge.input(1)) == null
        || model.initializer(merge.input(1)).dataType() != INT64) {
      return null;
    }
    long[] merged = model.initializer(merge.input(1)).longs();
    if (merged.length != 3 || merged[0] != 0 || merged[1] != 0 || merged[2] != hidden) {
      return null;
    }

    String prefix = "argus_qkv_" + layer;
    List<Branch> order = List.of(query, key, value);
    byte[] weight = new byte[hidden * 3 * hidden];
    float[] bias = new float[3 * hidden];
    float[] scale = new float[3 * hidden];
    byte[] zeroPoint = new byte[3 * hidden];
    for (int part = 0; part < 3; part++) {
      Branch b = order.get(part);
      byte[] w = model.initializer(b.product().input(1)).bytes();
      for (int row = 0; row < hidden; row++) {
        System.arraycopy(w, row * hidden, weight, row * 3 * hidden + part * hidden, hidden);
      }
      System.arraycopy(b.bias().floats(), 0, bias, part * hidden, hidden);
      float[] s = model.initializer(b.product().input(3)).floats();
      String zpName = b.product().input(5);
      byte[] z = zpName.isEmpty() ? new byte[1] : model.initializer(zpName).bytes();
      for (int c = 0; c < hidden; c++) {
        scale[part * hidden + c] = s.length == 1 ? s[0] : s[c];
        zeroPoint[part * hidden + c] = z.length == 1 ? z[0] : z[c];
      }
    }
    model.addInitializer(OnnxInitializer.ofBytes(prefix + "_weight", new long[] {hidden, 3L * hidden}, weight));
    model.addInitializer(OnnxInitializer.ofFloats(prefix + "_bias", new long[] {3L * hidden}, bias));
    model.addInitializer(OnnxInitializer.ofFloats(prefix + "_scale", new long[] {3L * hidden}, scale));
    model.addInitializer(OnnxInitializer.ofBytes(prefix + "_zero_point", new long[] {3L * hidden}, zeroPoint));
    OnnxNode fused = OnnxNode.create(prefix, MS, "QAttention",
        List.of(quantize.outputs().get(0), prefix + "_weight", prefix + "_bias", quantize.outputs().get(1),
            prefix + "_scale", MASK_INDEX, quantize.outputs().get(2), prefix + "_zero_point"),
        List.of(merge.output())).withInt("num_heads", numHeads);

    List<OnnxNode> dropped = new ArrayList<>();
    for (Branch b : order) {
      dropped.addAll(List.of(b.product(), b.biasAdd(), b.reshape(), b.transpose()));
    }
    dropped.addAll(List.of(scores, maskAdd, softmax, weighted, back));
    return new Block(fused, merge, dropped);
  }

  /** A query, key or value branch starting at {@code product}, or null if it is not one. */
  private Branch branch(OnnxNode product, OnnxNode quantize) {
    List<String> q = quantize.outputs();
    if (!product.is(MS, "MatMulIntegerToFloat") || !product.input(0).equals(q.get(0))
        || !product.input(2).equals(q.get(1)) || !product.input(4).equals(q.get(2)) || !product.input(6).isEmpty()) {
      return null;
    }
    OnnxInitializer w = model.initializer(product.input(1));
    OnnxInitializer s = model.initializer(product.input(3));
    OnnxInitializer z = product.input(5).isEmpty() ? null : model.initializer(product.input(5));
    if (w == null || w.dataType() != INT8 || w.dims().length != 2 || s == null
        || s.dataType() != FLOAT || (s.count() != 1 && s.count() != w.dims()[1])
        || (!product.input(5).isEmpty() && (z == null || z.dataType() != INT8
        || (z.count() != 1 && z.count() != w.dims()[1])))) {
      return null;
    }
    OnnxNode add = graph.only(product.output());
    OnnxInitializer bias = add == null || !add.is("", "Add") ? null : graph.constantOperand(add, product.output());
    if (bias == null || bias.dataType() != FLOAT || bias.dims().length != 1) {
      return null;
    }
    OnnxNode reshape = graph.only(add.output());
    if (reshape == null || !reshape.is("", "Reshape") || !reshape.input(0).equals(add.output())) {
      return null;
    }
    OnnxInitializer shape = model.initializer(reshape.input(1));
    if (shape == null || shape.dataType() != INT64 || shape.count() != 4) {
      return null;
    }
    long[] dims = shape.longs();
    if (dims[0] != 0 || dims[1] != 0 || dims[2] <= 0 || dims[3] <= 0) {
      return null;
    }
    OnnxNode transpose = graph.only(reshape.output());
    if (transpose == null || !transpose.is("", "Transpose") || transpose.intsAttribute("perm") == null) {
      return null;
    }
    return new Branch(product, add, bias, reshape, transpose, transpose.intsAttribute("perm"));
  }

  /**
   * Whether {@code value} is the additive attention mask made from the {@code attention_mask} input:
   * {@code (1 - cast(unsqueeze(mask))) * c} with c at most -10,000 (the export's stand-in for minus infinity:
   * QAttention masks with its own, and either way a masked position's weight underflows to exactly 0).
   */
  private boolean isMaskTerm(String value) {
    OnnxNode mul = graph.producer(value);
    if (mul == null || !mul.is("", "Mul")) {
      return false;
    }
    OnnxInitializer c = model.initializer(mul.input(1));
    String other = mul.input(0);
    if (c == null) {
      c = model.initializer(mul.input(0));
      other = mul.input(1);
    }
    if (c == null || c.dataType() != FLOAT || c.count() != 1 || c.floats()[0] > -10_000f) {
      return false;
    }
    OnnxNode sub = graph.producer(other);
    if (sub == null || !sub.is("", "Sub")) {
      return false;
    }
    OnnxInitializer one = model.initializer(sub.input(0));
    if (one == null || one.dataType() != FLOAT || one.count() != 1 || one.floats()[0] != 1f) {
      return false;
    }
    String v = sub.input(1);
    boolean cast = false;
    for (OnnxNode n = graph.producer(v); n != null; n = graph.producer(v)) {
      if (n.is("", "Cast") && !cast && Long.valueOf(FLOAT).equals(n.intAttribute("to"))) {
        cast = true;
      } else if (!n.is("", "Unsqueeze")) {
        return false;
      }
      v = n.input(0);
    }
    return cast && MASK_INPUT.equals(v);
  }
}
