package dev.argus.embed.onnx;

import dev.argus.embed.onnx.OnnxModel.Node;
import dev.argus.embed.onnx.OnnxModel.Tensor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Exact rewrites of an int8 BERT encoder graph, as ONNX Runtime's optimizer leaves it at level {@code EXTENDED},
 * into the fused operators of its CPU kernels. ONNX Runtime fuses a float BERT's attention itself, but not the
 * dynamically quantized export the bundled models are: each layer keeps three quantized products for query, key
 * and value, their bias additions, four reshapes and four transposes, the scaled product, the mask addition, the
 * softmax and the weighted sum as separate operators (about 30 per layer). Three rewrites, each of which computes
 * the same numbers:
 *
 * <ul>
 *   <li><b>attention</b>: the three products of one quantized input and everything up to the heads' merged output
 *       become one {@code QAttention}, whose weight is the query, key and value weights side by side (one product
 *       of three times the width) with their per-column scales, zero points and biases;</li>
 *   <li><b>biases</b>: a bias added to a quantized product's output becomes the product's own bias input;</li>
 *   <li><b>skip normalisations</b>: a residual addition feeding a layer normalisation becomes one
 *       {@code SkipLayerNormalization}.</li>
 * </ul>
 *
 * Every rewrite checks its whole pattern (operators, attributes, shapes of the weights, a single reader of each
 * intermediate value, the mask computed from the {@code attention_mask} input) and leaves anything else alone.
 */
final class BertGraphFusion {

  static final String MS = "com.microsoft";
  static final String MASK_INPUT = "attention_mask";
  private static final String MASK_INDEX = "argus_mask_index";

  /** What the rewrites did; {@code model} is the rewritten model, or null when none applied. */
  record Result(byte[] model, int attention, int biases, int skipNorms) {

    boolean changed() {
      return attention + biases + skipNorms > 0;
    }

    @Override
    public String toString() {
      return attention + " attention blocks, " + biases + " biases, " + skipNorms + " skip normalisations";
    }
  }

  private final OnnxModel model;
  private Map<String, Node> producers;
  private Map<String, List<Node>> consumers;

  private BertGraphFusion(OnnxModel model) {
    this.model = model;
  }

  /** Rewrites {@code optimized} (a model saved by ONNX Runtime at level {@code EXTENDED}). */
  static Result fuse(byte[] optimized) {
    BertGraphFusion f = new BertGraphFusion(OnnxModel.parse(optimized));
    int attention = f.fuseAttention();
    int biases = f.foldBiases();
    int norms = f.fuseSkipNorms();
    if (attention + biases + norms == 0) {
      return new Result(null, 0, 0, 0);
    }
    f.removeUnread();
    return new Result(f.model.toBytes(MS), attention, biases, norms);
  }

  // ---- attention ----------------------------------------------------------------------------------------------

  /** The query, key or value branch of one attention block: product, bias, reshape to heads, transpose. */
  private record Branch(Node product, Node biasAdd, Tensor bias, Node reshape, Node transpose, List<Long> perm) {
  }

  private int fuseAttention() {
    if (!model.graphInputs().contains(MASK_INPUT)) {
      return 0;
    }
    index();
    Map<Node, Node> replace = new IdentityHashMap<>();
    Set<Node> remove = Collections.newSetFromMap(new IdentityHashMap<>());
    int layer = 0;
    for (Node quantize : model.nodes()) {
      if (!quantize.is("", "DynamicQuantizeLinear") || quantize.outputs().size() < 3) {
        continue;
      }
      List<Node> attention = attentionBlock(quantize, layer);
      if (attention != null) {
        Node merged = attention.get(attention.size() - 1);
        Node fused = attention.get(0);
        replace.put(merged, fused);
        remove.addAll(attention.subList(1, attention.size() - 1));
        layer++;
      }
    }
    if (layer == 0) {
      return 0;
    }
    List<Node> nodes = new ArrayList<>();
    nodes.add(Node.create(MASK_INDEX, "", "Cast", List.of(MASK_INPUT), List.of(MASK_INDEX)).withInt("to", OnnxModel.INT32));
    for (Node n : model.nodes()) {
      if (replace.containsKey(n)) {
        nodes.add(replace.get(n));
      } else if (!remove.contains(n)) {
        nodes.add(n);
      }
    }
    model.nodes().clear();
    model.nodes().addAll(nodes);
    return layer;
  }

  /**
   * The attention block reading {@code quantize}'s output, or null: the new {@code QAttention} node first, then
   * every node it replaces, the last being the one whose output it takes over.
   */
  private List<Node> attentionBlock(Node quantize, int layer) {
    List<Node> readers = consumers.getOrDefault(quantize.output(), List.of());
    if (readers.size() != 3) {
      return null;
    }
    List<Branch> branches = new ArrayList<>();
    for (Node product : readers) {
      Branch b = branch(product, quantize);
      if (b == null) {
        return null;
      }
      branches.add(b);
    }
    // Query and value go to [batch, heads, seq, head]; the key to [batch, heads, head, seq].
    Node scores = null;
    Branch query = null;
    Branch key = null;
    for (Branch b : branches) {
      Node next = only(b.transpose().output());
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
          && only(b.transpose().output()) == scores) {
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
      Tensor w = model.initializer(b.product().input(1));
      if (shape[2] != numHeads || shape[3] != headSize || w.dims()[0] != hidden || w.dims()[1] != hidden
          || b.bias().count() != hidden) {
        return null;
      }
    }
    if (!zero(scores, "transA") || !zero(scores, "transB") || !zero(scores, "transBatchA")
        || !zero(scores, "transBatchB")) {
      return null;
    }
    Float alpha = scores.floatAttribute("alpha");
    if (alpha == null || Math.abs(alpha - 1.0 / Math.sqrt(headSize)) > 1e-6) {
      return null;
    }
    Node maskAdd = only(scores.output());
    if (maskAdd == null || !maskAdd.is("", "Add") || !maskAdd.input(0).equals(scores.output())
        || !isMaskTerm(maskAdd.input(1))) {
      return null;
    }
    Node softmax = only(maskAdd.output());
    if (softmax == null || !softmax.is("", "Softmax") || softmax.intAttribute("axis") == null
        || !lastAxis(softmax.intAttribute("axis"), 4)) {
      return null;
    }
    Node weighted = only(softmax.output());
    if (weighted == null || !weighted.is("", "MatMul") || !weighted.input(0).equals(softmax.output())
        || !weighted.input(1).equals(value.transpose().output()) || only(value.transpose().output()) != weighted) {
      return null;
    }
    Node back = only(weighted.output());
    if (back == null || !back.is("", "Transpose")
        || !List.of(0L, 2L, 1L, 3L).equals(back.intsAttribute("perm"))) {
      return null;
    }
    Node merge = only(back.output());
    if (merge == null || !merge.is("", "Reshape") || model.initializer(merge.input(1)) == null
        || model.initializer(merge.input(1)).dataType() != OnnxModel.INT64) {
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
    model.addInitializer(Tensor.ofBytes(prefix + "_weight", new long[] {hidden, 3L * hidden}, weight));
    model.addInitializer(Tensor.ofFloats(prefix + "_bias", new long[] {3L * hidden}, bias));
    model.addInitializer(Tensor.ofFloats(prefix + "_scale", new long[] {3L * hidden}, scale));
    model.addInitializer(Tensor.ofBytes(prefix + "_zero_point", new long[] {3L * hidden}, zeroPoint));
    Node fused = Node.create(prefix, MS, "QAttention",
        List.of(quantize.outputs().get(0), prefix + "_weight", prefix + "_bias", quantize.outputs().get(1),
            prefix + "_scale", MASK_INDEX, quantize.outputs().get(2), prefix + "_zero_point"),
        List.of(merge.output())).withInt("num_heads", numHeads);

    List<Node> block = new ArrayList<>();
    block.add(fused);
    for (Branch b : order) {
      block.addAll(List.of(b.product(), b.biasAdd(), b.reshape(), b.transpose()));
    }
    block.addAll(List.of(scores, maskAdd, softmax, weighted, back, merge));
    return block;
  }

  /** A query, key or value branch starting at {@code product}, or null if it is not one. */
  private Branch branch(Node product, Node quantize) {
    List<String> q = quantize.outputs();
    if (!product.is(MS, "MatMulIntegerToFloat") || !product.input(0).equals(q.get(0))
        || !product.input(2).equals(q.get(1)) || !product.input(4).equals(q.get(2)) || !product.input(6).isEmpty()) {
      return null;
    }
    Tensor w = model.initializer(product.input(1));
    Tensor s = model.initializer(product.input(3));
    Tensor z = product.input(5).isEmpty() ? null : model.initializer(product.input(5));
    if (w == null || w.dataType() != OnnxModel.INT8 || w.dims().length != 2 || s == null
        || s.dataType() != OnnxModel.FLOAT || (s.count() != 1 && s.count() != w.dims()[1])
        || (!product.input(5).isEmpty() && (z == null || z.dataType() != OnnxModel.INT8
        || (z.count() != 1 && z.count() != w.dims()[1])))) {
      return null;
    }
    Node add = only(product.output());
    Tensor bias = add == null || !add.is("", "Add") ? null : constantOperand(add, product.output());
    if (bias == null || bias.dataType() != OnnxModel.FLOAT || bias.dims().length != 1) {
      return null;
    }
    Node reshape = only(add.output());
    if (reshape == null || !reshape.is("", "Reshape") || !reshape.input(0).equals(add.output())) {
      return null;
    }
    Tensor shape = model.initializer(reshape.input(1));
    if (shape == null || shape.dataType() != OnnxModel.INT64 || shape.count() != 4) {
      return null;
    }
    long[] dims = shape.longs();
    if (dims[0] != 0 || dims[1] != 0 || dims[2] <= 0 || dims[3] <= 0) {
      return null;
    }
    Node transpose = only(reshape.output());
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
    Node mul = producers.get(value);
    if (mul == null || !mul.is("", "Mul")) {
      return false;
    }
    Tensor c = constant(mul.input(1));
    String other = mul.input(0);
    if (c == null) {
      c = constant(mul.input(0));
      other = mul.input(1);
    }
    if (c == null || c.dataType() != OnnxModel.FLOAT || c.count() != 1 || c.floats()[0] > -10_000f) {
      return false;
    }
    Node sub = producers.get(other);
    if (sub == null || !sub.is("", "Sub")) {
      return false;
    }
    Tensor one = constant(sub.input(0));
    if (one == null || one.dataType() != OnnxModel.FLOAT || one.count() != 1 || one.floats()[0] != 1f) {
      return false;
    }
    String v = sub.input(1);
    boolean cast = false;
    for (Node n = producers.get(v); n != null; n = producers.get(v)) {
      if (n.is("", "Cast") && !cast && Long.valueOf(OnnxModel.FLOAT).equals(n.intAttribute("to"))) {
        cast = true;
      } else if (!n.is("", "Unsqueeze")) {
        return false;
      }
      v = n.input(0);
    }
    return cast && MASK_INPUT.equals(v);
  }

  // ---- biases -------------------------------------------------------------------------------------------------

  private int foldBiases() {
    index();
    Set<Node> remove = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Node add : model.nodes()) {
      if (!add.is("", "Add") || add.inputs().size() != 2) {
        continue;
      }
      for (int i = 0; i < 2; i++) {
        Tensor bias = model.initializer(add.input(i));
        Node product = producers.get(add.input(1 - i));
        if (bias == null || bias.dataType() != OnnxModel.FLOAT || bias.dims().length != 1 || product == null) {
          continue;
        }
        int slot = product.is(MS, "DynamicQuantizeMatMul") ? 4 : product.is(MS, "MatMulIntegerToFloat") ? 6 : -1;
        Tensor weight = slot < 0 ? null : model.initializer(product.input(1));
        if (weight == null || weight.dims().length != 2 || weight.dims()[1] != bias.count()
            || !product.input(slot).isEmpty() || only(product.output()) != add
            || model.graphOutputs().contains(product.output())) {
          continue;
        }
        while (product.inputs().size() <= slot) {
          product.inputs().add("");
        }
        product.inputs().set(slot, add.input(i));
        product.outputs().set(0, add.output());
        remove.add(add);
        break;
      }
    }
    model.nodes().removeIf(remove::contains);
    return remove.size();
  }

  // ---- skip normalisations ------------------------------------------------------------------------------------

  private int fuseSkipNorms() {
    index();
    Map<Node, Node> replace = new IdentityHashMap<>();
    Set<Node> remove = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Node norm : model.nodes()) {
      if (!norm.is("", "LayerNormalization") || !lastAxis(norm.intAttribute("axis"), 3)
          || norm.outputs().stream().skip(1).anyMatch(o -> !o.isEmpty())) {
        continue;
      }
      Node add = producers.get(norm.input(0));
      if (add == null || !add.is("", "Add") || only(add.output()) != norm
          || model.graphOutputs().contains(add.output())) {
        continue;
      }
      for (int i = 0; i < 2; i++) {
        Node product = producers.get(add.input(i));
        Node residual = producers.get(add.input(1 - i));
        Tensor gamma = model.initializer(norm.input(1));
        Tensor weight = product == null ? null : model.initializer(product.input(1));
        if (product != null && product.is(MS, "DynamicQuantizeMatMul") && residual != null
            && (residual.is("", "LayerNormalization") || residual.is(MS, "SkipLayerNormalization"))
            && weight != null && gamma != null && weight.dims().length == 2 && weight.dims()[1] == gamma.count()) {
          Float epsilon = norm.floatAttribute("epsilon");
          List<String> inputs = new ArrayList<>(List.of(add.input(i), add.input(1 - i), norm.input(1)));
          if (!norm.input(2).isEmpty()) {
            inputs.add(norm.input(2));
          }
          replace.put(norm, Node.create("argus_skip_" + norm.output(), MS, "SkipLayerNormalization", inputs,
              List.of(norm.output())).withFloat("epsilon", epsilon == null ? 1e-5f : epsilon));
          remove.add(add);
          break;
        }
      }
    }
    List<Node> nodes = new ArrayList<>();
    for (Node n : model.nodes()) {
      if (!remove.contains(n)) {
        nodes.add(replace.getOrDefault(n, n));
      }
    }
    model.nodes().clear();
    model.nodes().addAll(nodes);
    return replace.size();
  }

  // ---- helpers ------------------------------------------------------------------------------------------------

  /** Drops nodes whose outputs nothing reads (the mask's old arithmetic, once every block reads the cast). */
  private void removeUnread() {
    Set<String> needed = new HashSet<>(model.graphOutputs());
    List<Node> kept = new ArrayList<>();
    List<Node> nodes = model.nodes();
    for (int i = nodes.size() - 1; i >= 0; i--) {
      Node n = nodes.get(i);
      if (n.outputs().stream().anyMatch(needed::contains)) {
        kept.add(0, n);
        n.inputs().stream().filter(in -> !in.isEmpty()).forEach(needed::add);
      }
    }
    nodes.clear();
    nodes.addAll(kept);
  }

  private void index() {
    producers = new HashMap<>();
    consumers = new HashMap<>();
    for (Node n : model.nodes()) {
      for (String o : n.outputs()) {
        producers.put(o, n);
      }
      for (String in : n.inputs()) {
        consumers.computeIfAbsent(in, k -> new ArrayList<>()).add(n);
      }
    }
  }

  /** The single node reading {@code value}, or null if there are several, none, or it is a graph output. */
  private Node only(String value) {
    List<Node> readers = consumers.getOrDefault(value, List.of());
    return readers.size() == 1 && !model.graphOutputs().contains(value) ? readers.get(0) : null;
  }

  /** The initializer among {@code add}'s two inputs, the other being {@code value}. */
  private Tensor constantOperand(Node add, String value) {
    if (add.inputs().size() != 2) {
      return null;
    }
    if (add.input(1).equals(value)) {
      return model.initializer(add.input(0));
    }
    return add.input(0).equals(value) ? model.initializer(add.input(1)) : null;
  }

  private Tensor constant(String name) {
    return model.initializer(name);
  }

  private static boolean zero(Node n, String attribute) {
    Long v = n.intAttribute(attribute);
    return v == null || v == 0;
  }

  private static boolean lastAxis(Long axis, int rank) {
    return axis == null || axis == -1 || axis == rank - 1;
  }
}
