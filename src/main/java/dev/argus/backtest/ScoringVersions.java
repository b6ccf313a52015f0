package dev.argus.backtest;

import dev.argus.common.ApiException;
import dev.argus.config.BundledFiles;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Adoption of proposed thresholds: a new scoring version file {@code <scoringDir>/<profile>@<version>.json}, a copy of
 * the live {@code <profile>.json} with the new {@code version}, the proposed {@code thresholds: {review, reject}} and
 * an {@code adoption} note (backtest, who, when, costs, expected cost, the version and thresholds it replaces). It is a
 * candidate beside the live model (shadow mode selects it by version; making it live is a person's step: replace
 * {@code <profile>.json} by it). Never overwrites a file. Blocking (files): call on a worker.
 */
final class ScoringVersions {

  static final String VERSION_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

  private ScoringVersions() {
  }

  /** Writes the version file and returns {@code {profile, version, file, thresholds, replaces}}. */
  static JsonObject adopt(String scoringDir, String profile, String version, double review, double reject,
                          JsonObject adoption) {
    if (!version.matches(VERSION_PATTERN)) {
      throw ApiException.badRequest("invalid_field", "field 'version' must match " + VERSION_PATTERN);
    }
    if (reject < review || review < 0 || reject > 101) {
      throw ApiException.badRequest("invalid_thresholds", "thresholds must satisfy 0 ≤ review ≤ reject");
    }
    Path live = BundledFiles.resolve(scoringDir + "/" + profile + ".json");
    JsonObject model;
    try {
      model = new JsonObject(Files.readString(live, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw ApiException.notFound("no_scoring_model", "no live scoring model for profile '" + profile + "' ("
          + live + ")");
    } catch (DecodeException e) {
      throw new ApiException(500, "invalid_scoring_model", "the live scoring model " + live + " is not JSON");
    }
    if (version.equals(model.getString("version"))) {
      throw new ApiException(409, "version_exists", "version '" + version + "' is the live version");
    }
    JsonObject previous = model.getJsonObject("thresholds", new JsonObject()).copy();
    JsonObject thresholds = model.getJsonObject("thresholds", new JsonObject()).copy()
        .put("review", Math.min(review, 100.0)).put("reject", Math.min(reject, 100.0));
    if (reject > 100) {
      thresholds.put("reject", 100.0);
      adoption.put("note", "the proposal stops nothing seen in the backtest; reject is set to the top of the scale");
    }
    adoption.put("replacesVersion", model.getString("version")).put("replacesThresholds", previous)
        .put("adoptedAt", Instant.now().toString());
    model.put("version", version).put("thresholds", thresholds).put("adoption", adoption);
    Path dir = Path.of(scoringDir);
    Path file = dir.resolve(profile + "@" + version + ".json");
    try {
      Files.createDirectories(dir);
      Files.writeString(file, model.encodePrettily() + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException e) {
      throw new ApiException(409, "version_exists", "scoring version file " + file.getFileName() + " exists already");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
    return new JsonObject().put("profile", profile).put("version", version).put("file", file.toString())
        .put("thresholds", thresholds).put("replaces", new JsonObject().put("version", adoption
            .getString("replacesVersion")).put("thresholds", previous));
  }
}
