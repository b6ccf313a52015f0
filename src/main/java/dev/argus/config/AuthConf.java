package dev.argus.config;

import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Section {@code auth}: access control (see README "Access control").
 * <ul>
 *   <li>{@code required} ({@code ARGUS_AUTH_REQUIRED}): every route except health and the static shell needs a key.
 *       Also in force, whatever this says, whenever {@code http.host} is not a loopback address. When off, loopback
 *       clients without a key are served as {@code local} (admin); a presented key is still checked.</li>
 *   <li>{@code bootstrapAdminKey}: when keys are required and none exists, the first start creates an admin key and
 *       prints it once on standard output as {@code admin key: <key>}.</li>
 *   <li>{@code rateLimits}: requests per minute for each role's keys (a key may carry its own limit); 0 is unlimited.
 *   </li>
 *   <li>{@code keyRefreshMs}: how often the server reloads the key table (keys created or revoked by the command
 *       line while it runs take effect within this time; those made over the API at once).</li>
 *   <li>{@code jwt*}: JSON Web Tokens accepted beside keys when {@code jwtEnabled}: {@code jwtAlgorithm} HS256 with
 *       the shared secret in {@code jwtSecretFile}, or RS256/ES256 with the PEM public key in
 *       {@code jwtPublicKeyFile}; {@code jwtIssuer} and {@code jwtAudience} must match when set; the token's
 *       {@code role} claim names the role, {@code namespaces} (optional) limits it.</li>
 * </ul>
 */
public record AuthConf(boolean required, boolean bootstrapAdminKey, Map<String, Integer> rateLimits,
                       long keyRefreshMs, boolean jwtEnabled, String jwtAlgorithm, String jwtSecretFile,
                       String jwtPublicKeyFile, String jwtIssuer, String jwtAudience, int maxKeys) {

  public static final Map<String, Integer> DEFAULT_RATE_LIMITS = Map.of("admin", 600, "analyst", 600,
      "upstream", 1200, "reader", 300);

  public AuthConf {
    rateLimits = Map.copyOf(rateLimits);
  }

  public static AuthConf from(Settings s) {
    JsonObject limits = s.object("rateLimits", new JsonObject());
    Map<String, Integer> rates = new LinkedHashMap<>(DEFAULT_RATE_LIMITS);
    for (String role : limits.fieldNames()) {
      if (!DEFAULT_RATE_LIMITS.containsKey(role)) {
        throw s.error("rateLimits", "names unknown role '" + role + "' (admin, analyst, upstream, reader)");
      }
      Object v = limits.getValue(role);
      if (!(v instanceof Number n) || n.intValue() < 0 || n.intValue() > 1_000_000 || n.doubleValue() != n.intValue()) {
        throw s.error("rateLimits", "'" + role + "' must be a whole number of requests per minute 0..1000000");
      }
      rates.put(role, n.intValue());
    }
    boolean jwt = s.bool("jwtEnabled", false);
    String algorithm = s.oneOf("jwtAlgorithm", "HS256", "HS256", "RS256", "ES256");
    String secretFile = s.string("jwtSecretFile", "");
    String publicKeyFile = s.string("jwtPublicKeyFile", "");
    if (jwt && algorithm.equals("HS256") && secretFile.isBlank()) {
      throw s.error("jwtSecretFile", "must name the file holding the HS256 secret when jwtEnabled is true");
    }
    if (jwt && !algorithm.equals("HS256") && publicKeyFile.isBlank()) {
      throw s.error("jwtPublicKeyFile", "must name a PEM public key file for " + algorithm);
    }
    return new AuthConf(s.bool("required", false), s.bool("bootstrapAdminKey", true), rates,
        s.longIn("keyRefreshMs", 5_000, 100, 3_600_000), jwt, algorithm, secretFile, publicKeyFile,
        s.string("jwtIssuer", ""), s.string("jwtAudience", ""), s.intIn("maxKeys", 10_000, 1, 1_000_000));
  }

  /** True when every request needs a key: {@code required}, or the server is bound beyond loopback. */
  public boolean keysRequired(HttpConf http) {
    return required || !http.loopbackOnly();
  }
}
