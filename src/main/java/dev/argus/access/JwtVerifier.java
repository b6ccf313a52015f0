package dev.argus.access;

import dev.argus.common.ApiException;
import dev.argus.config.AuthConf;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON Web Tokens for single sign-on deployments (vertx-auth-jwt): the signature (HS256 shared secret, or RS256/ES256
 * public key), expiry, and issuer/audience when configured. The token's {@code role} claim names an Argus role,
 * {@code namespaces} (an array, optional) limits it, {@code sub} names the caller ({@code jwt:<sub>} in the audit
 * log), and {@code rateLimit} (optional) replaces the role's limit.
 */
public final class JwtVerifier {

  /** What a valid token grants. */
  public record Grant(String subject, Role role, List<String> namespaces, Integer rateLimit) {
  }

  private final JWTAuth auth;

  private JwtVerifier(JWTAuth auth) {
    this.auth = auth;
  }

  /** Reads the key file (blocking: call at start-up on a worker) and builds the verifier. */
  public static JwtVerifier create(Vertx vertx, AuthConf conf) throws IOException {
    String material = Files.readString(Path.of(conf.jwtAlgorithm().equals("HS256") ? conf.jwtSecretFile()
        : conf.jwtPublicKeyFile())).strip();
    JWTOptions jwt = new JWTOptions();
    if (!conf.jwtIssuer().isBlank()) {
      jwt.setIssuer(conf.jwtIssuer());
    }
    if (!conf.jwtAudience().isBlank()) {
      jwt.setAudience(List.of(conf.jwtAudience()));
    }
    JWTAuthOptions options = new JWTAuthOptions().addPubSecKey(new PubSecKeyOptions()
        .setAlgorithm(conf.jwtAlgorithm()).setBuffer(material)).setJWTOptions(jwt);
    return new JwtVerifier(JWTAuth.create(vertx, options));
  }

  /** True when the text looks like a compact JWS (three base64url parts). */
  public static boolean looksLikeJwt(String token) {
    return token != null && token.length() < 8192 && token.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");
  }

  public Future<Grant> verify(String token) {
    return auth.authenticate(new TokenCredentials(token))
        .recover(err -> Future.failedFuture(new ApiException(401, "unauthorized", "the token is not valid: "
            + clip(err.getMessage()))))
        .compose(user -> {
          JsonObject claims = claims(user);
          Role role = Role.parse(claims.getString("role"));
          if (role == null) {
            return Future.failedFuture(new ApiException(403, "forbidden", "the token names no Argus role (claim "
                + "'role': " + Role.names() + ")"));
          }
          List<String> namespaces = null;
          Object ns = claims.getValue("namespaces");
          if (ns instanceof JsonArray a) {
            namespaces = new ArrayList<>();
            for (Object o : a) {
              namespaces.add(String.valueOf(o));
            }
          }
          Object rate = claims.getValue("rateLimit");
          return Future.succeededFuture(new Grant(claims.getString("sub", "anonymous"), role, namespaces,
              rate instanceof Number n ? n.intValue() : null));
        });
  }

  private static JsonObject claims(User user) {
    JsonObject token = user.attributes() == null ? null : user.attributes().getJsonObject("accessToken");
    return token != null ? token : user.principal();
  }

  /** A signed token for these claims (tests and tools). */
  public String sign(JsonObject claims) {
    return auth.generateToken(claims, new JWTOptions());
  }

  private static String clip(String s) {
    return s == null ? "" : s.length() > 120 ? s.substring(0, 120) : s;
  }
}
