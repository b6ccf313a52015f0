package dev.argus.http;

import dev.argus.common.ApiException;
import dev.argus.config.HttpConf;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Who may send a request, decided once per request before any route runs; the one place where access control
 * (API keys, roles) will plug in. Today:
 * <ul>
 *   <li>the {@code Host} header must name one of {@code http.allowedHosts} (or the bound interface), so that a page
 *       served from another name that resolves to this machine (DNS rebinding) is refused: 400 {@code missing_host},
 *       403 {@code host_not_allowed};</li>
 *   <li>state-changing requests ({@code POST PUT PATCH DELETE}) from a browser page of another origin are refused,
 *       including simple-content-type forms that need no CORS preflight: a {@code Sec-Fetch-Site} other than
 *       {@code same-origin}/{@code none}, or an {@code Origin} that is neither this server's origin nor one of
 *       {@code http.allowedOrigins}, answers 403 {@code cross_origin_refused}. Clients that send neither header
 *       (curl, SDKs, other services) are not browsers and pass.</li>
 * </ul>
 */
public final class AccessPolicy {

  private static final Set<HttpMethod> STATE_CHANGING = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
      HttpMethod.DELETE);

  private final boolean anyHost;
  private final Set<String> hosts;
  private final Set<String> origins;

  public AccessPolicy(HttpConf conf) {
    this.anyHost = conf.allowedHosts().contains("*");
    this.hosts = new HashSet<>(conf.allowedHosts());
    String bound = conf.host().toLowerCase(Locale.ROOT);
    if (!bound.equals("0.0.0.0") && !bound.equals("::") && !bound.equals("[::]")) {
      hosts.add(bound.contains(":") && !bound.startsWith("[") ? "[" + bound + "]" : bound);
    }
    this.origins = Set.copyOf(conf.allowedOrigins());
  }

  /** The reason to refuse this request, or empty when it may proceed. */
  public Optional<ApiException> check(HttpServerRequest req) {
    String host = req.getHeader("Host");
    if (host == null) {
      host = req.authority() == null ? null : req.authority().toString();
    }
    if (host == null || host.isBlank()) {
      return Optional.of(ApiException.badRequest("missing_host", "the request has no Host header"));
    }
    host = host.strip().toLowerCase(Locale.ROOT);
    String name = hostName(host);
    if (!anyHost && !hosts.contains(name)) {
      return Optional.of(new ApiException(403, "host_not_allowed", "host '" + clip(name)
          + "' is not one of this server's names (http.allowedHosts)"));
    }
    if (STATE_CHANGING.contains(req.method())) {
      return crossOrigin(req, host);
    }
    return Optional.empty();
  }

  private Optional<ApiException> crossOrigin(HttpServerRequest req, String host) {
    String origin = req.getHeader("Origin");
    String normalized = origin == null ? null : origin.strip().toLowerCase(Locale.ROOT);
    if (normalized != null && origins.contains(normalized)) {
      return Optional.empty();
    }
    String site = req.getHeader("Sec-Fetch-Site");
    if (site != null && !List.of("same-origin", "none").contains(site.strip().toLowerCase(Locale.ROOT))) {
      return refused();
    }
    if (normalized != null && !normalized.equals("http://" + host) && !normalized.equals("https://" + host)) {
      return refused();
    }
    return Optional.empty();
  }

  private static Optional<ApiException> refused() {
    return Optional.of(new ApiException(403, "cross_origin_refused",
        "state-changing requests from pages of another origin are refused (http.allowedOrigins)"));
  }

  /** The host name of a {@code Host} header value: without the port; IPv6 literals keep their brackets. */
  static String hostName(String host) {
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(0, end + 1);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }

  private static String clip(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}
