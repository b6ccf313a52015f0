package dev.argus.citations;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConfidenceTest {

  private final Confidence model = Confidence.DEFAULT;

  @ParameterizedTest(name = "depth {2}: min({0}, {1}) x (1 - 0.1 x {2}) = {3} -> {4}")
  @CsvSource({
      // a stored relation between existing entities: 1.0 x 1.0 = 1.0
      "1.0, 1.0, 0, 1.0, valid",
      // one edge of inference: 1.0 x 0.9 = 0.9
      "1.0, 1.0, 1, 0.9, valid",
      // shared identifier (two edges): 1.0 x 0.8 = 0.8
      "1.0, 1.0, 2, 0.8, valid",
      // 1.0 x 0.7 = 0.7
      "1.0, 1.0, 3, 0.7, valid",
      // 1.0 x 0.6 = 0.6
      "1.0, 1.0, 4, 0.6, valid",
      // the deepest inference, exactly on the valid boundary: 1.0 x 0.5 = 0.5
      "1.0, 1.0, 5, 0.5, valid",
      // a succeeded tool (0.9) at depth 5: 0.9 x 0.5 = 0.45 < 0.5
      "0.9, 1.0, 5, 0.45, flagged",
      // relation weight 0.6 at depth 5: min(1.0, 0.6) x 0.5 = 0.30, exactly the exclusion boundary: flagged
      "1.0, 0.6, 5, 0.3, flagged",
      // relation weight 0.5 at depth 5: 0.5 x 0.5 = 0.25 < 0.3
      "1.0, 0.5, 5, 0.25, excluded",
      // a failed tool: 0.3 x 1.0 = 0.3, on the boundary
      "0.3, 1.0, 0, 0.3, flagged",
      // a failed tool one edge deep: 0.3 x 0.9 = 0.27
      "0.3, 1.0, 1, 0.27, excluded",
      // nothing found: 0.1 x 1.0 = 0.1
      "0.1, 1.0, 0, 0.1, excluded",
      // a succeeded tool at depth 4: 0.9 x 0.6 = 0.54
      "0.9, 1.0, 4, 0.54, valid",
      // weight 0.75 at depth 3: 0.75 x 0.7 = 0.525
      "1.0, 0.75, 3, 0.525, valid",
      // just under valid: 0.7 x 0.7 = 0.49
      "0.7, 1.0, 3, 0.49, flagged",
      // just under the exclusion line: 0.58 x 0.5 = 0.29
      "0.58, 1.0, 5, 0.29, excluded"
  })
  void confidenceAndStatus(double entity, double relation, int depth, double expected, String status) {
    double c = model.combine(entity, relation, depth);
    assertEquals(expected, c, 0.0);
    assertEquals(status, model.status(c).wire());
  }

  @Test
  void deeperThanTheLimitIsWorthNothing() {
    assertEquals(0.0, model.combine(1.0, 1.0, 6));
    assertEquals(CitationStatus.EXCLUDED, model.status(0.0));
  }

  @Test
  void inconsistentModelsAreRejected() {
    // excludeBelow above validAt
    assertThrows(IllegalArgumentException.class, () -> new Confidence(0.1, 5, 0.3, 0.5, 0.9, 0.3, 0.1));
    // penalty x depth reaching 1 would make every deep citation worthless
    assertThrows(IllegalArgumentException.class, () -> new Confidence(0.2, 5, 0.5, 0.3, 0.9, 0.3, 0.1));
    // the graph's path limit is 5
    assertThrows(IllegalArgumentException.class, () -> new Confidence(0.1, 6, 0.5, 0.3, 0.9, 0.3, 0.1));
    assertThrows(IllegalArgumentException.class, () -> new Confidence(0.1, 5, 0.5, 0.3, 1.2, 0.3, 0.1));
  }
}
