package dev.argus.embed.onnx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.argus.embed.onnx.OnnxFields.FLOAT;

/**
 * Exact rewrites of an int8 BERT encoder graph, as ONNX Runtime's optimizer leaves it at level {@code EXTENDED},
 * into the fused operators of its CPU kernels. ONNX Runtime fuses a float BERT's attention itself, but not the
 * dynamically quantized export the bundled models are: each layer keeps three quantized products for query, key
 * and value, their bias additions, four reshapes and four transposes, the scaled product, the mask addition, the
 * softmax and the weighted sum as separate operators (about 30 per layer). Three rewrites, each of which computes
 * the same numbers:
 *
 * <ul>
 *   <li><b>attention</b> ({@link AttentionFusion}): the three products of one quantized input and everything up to
 *       the heads' merged output become one {@code QAttention};</li>
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

  private BertGraphFusion(OnnxModel model) {
    this.model = model;
  }

  /** Rewrites {@code optimized} (a model saved by ONNX Runtime at level {@code EXTENDED}). */
  static Result fuse(byte[] optimized) {
    BertGraphFusion f = new BertGraphFusion(OnnxModel.parse(optimized));
    int attention = new AttentionFusion(f.model).apply();
    int biases = f.foldBiases();
    int norms = f.fuseSkipNorms();
    if (attention + biases + norms == 0) {
      return new Result(null, 0, 0, 0);
    }
    f.removeUnread();
    return new Result(f.model.toBytes(MS), attention, biases, norms);
  }

  // ---- biases -------------------------------------------------------------------------------------------------

  private int foldBiases() {
    GraphIndex graph = GraphIndex.of(model);
    Set<OnnxNode> remove = Collections.newSetFromMap(new IdentityHashMap<>());
    for (OnnxNode add : model.nodes()) {
      if (!add.is("", "Add") || add.inputs().size() != 2) {
        continue;
      }
      for (int i = 0; i < 2; i++) {
        OnnxInitializer bias = model.initializer(add.input(i));
        OnnxNode product = graph.producer(add.input(1 - i));
        if (bias == null || bias.dataType() != FLOAT || bias.dims().length != 1 || product == null) {
          continue;
        }
        int slot = product.is(MS, "DynamicQuantizeMatMul") ? 4 : product.is(MS, "MatMulIntegerToFloat") ? 6 : -1;
        OnnxInitializer weight = slot < 0 ? null : model.initializer(product.input(1));
        if (weight == null || weight.dims().length != 2 || weight.dims()[1] != bias.count()
            || !product.input(slot).isEmpty() || graph.only(product.output()) != add) {
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
    GraphIndex graph = GraphIndex.of(model);
    Map<OnnxNode, OnnxNode> replace = new IdentityHashMap<>();
    Set<OnnxNode> remove = Collections.newSetFromMap(new IdentityHashMap<>());
    for (OnnxNode norm : model.nodes()) {
      if (!norm.is("", "LayerNormalization") || !norm.lastAxis(3)
          || norm.outputs().stream().skip(1).anyMatch(o -> !o.isEmpty())) {
        continue;
      }
      OnnxNode add = graph.producer(norm.input(0));
      if (add == null || !add.is("", "Add") || graph.only(add.output()) != norm) {
        continue;
      }
      for (int i = 0; i < 2; i++) {
        OnnxNode product = graph.producer(add.input(i));
        OnnxNode residual = graph.producer(add.input(1 - i));
        OnnxInitializer gamma = model.initializer(norm.input(1));
        OnnxInitializer weight = product == null ? null : model.initializer(product.input(1));
        if (product != null && product.is(MS, "DynamicQuantizeMatMul") && residual != null
            && (residual.is("", "LayerNormalization") || residual.is(MS, "SkipLayerNormalization"))
            && weight != null && gamma != null && weight.dims().length == 2 && weight.dims()[1] == gamma.count()) {
          Float epsilon = norm.floatAttribute("epsilon");
          List<String> inputs = new ArrayList<>(List.of(add.input(i), add.input(1 - i), norm.input(1)));
          if (!norm.input(2).isEmpty()) {
            inputs.add(norm.input(2));
          }
          replace.put(norm, OnnxNode.create("argus_skip_" + norm.output(), MS, "SkipLayerNormalization", inputs,
              List.of(norm.output())).withFloat("epsilon", epsilon == null ? 1e-5f : epsilon));
          remove.add(add);
          break;
        }
      }
    }
    model.replaceNodes(replace, remove);
    return replace.size();
  }

  /** Drops nodes whose outputs nothing reads (the mask's old arithmetic, once every block reads the cast). */
  private void removeUnread() {
    Set<String> needed = new HashSet<>(model.graphOutputs());
    List<OnnxNode> kept = new ArrayList<>();
    List<OnnxNode> nodes = model.nodes();
    for (int i = nodes.size() - 1; i >= 0; i--) {
      OnnxNode n = nodes.get(i);
      if (n.outputs().stream().anyMatch(needed::contains)) {
        kept.add(0, n);
        n.inputs().stream().filter(in -> !in.isEmpty()).forEach(needed::add);
      }
    }
    nodes.clear();
    nodes.addAll(kept);
  }
}
