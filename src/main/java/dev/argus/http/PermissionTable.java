package dev.argus.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The permission every route needs, collected once after all routes are mounted: a route's own declaration
 * ({@link Permission#require}) or else its group's ({@link RouteGroup#permission}). The {@link GateHandler} looks a
 * request up here before any route runs (routes are matched the way {@link AllowedMethods} matches them: path
 * templates with {@code :params} and trailing {@code *}). Unmatched paths need {@link Permission#READ} under
 * {@code /api}, {@code /v1}, {@code /metrics} (an unauthenticated client learns nothing about which routes exist)
 * and nothing elsewhere (the static web shell).
 */
public final class PermissionTable {

  /** One route: methods (empty: any), path template, permission per method. */
  public record Entry(Set<HttpMethod> methods, String path, Pattern pattern, RouteGroup group, Permission declared) {

    Permission permission(HttpMethod method) {
      return declared != null ? declared : group == null ? Permission.defaultFor(method) : group.permission(method);
    }

    boolean matches(HttpMethod method, String p) {
      HttpMethod m = method == HttpMethod.HEAD ? HttpMethod.GET : method; // every GET route answers HEAD too
      return (methods.isEmpty() || methods.contains(m) || methods.contains(method)) && pattern.matcher(p).matches();
    }
  }

  private final List<Entry> entries = new ArrayList<>();
  private final Pattern pages;

  PermissionTable(Pattern pages) {
    this.pages = pages;
  }

  /**
   * Records the routes {@code group} mounted (those with a path, {@code :params} included: Vert.x keeps such a
   * template as a regex too, so {@code isRegexPath()} must not exclude it); {@code group} null: health routes.
   */
  void add(List<Route> routes, RouteGroup group) {
    for (Route route : routes) {
      if (route.getPath() == null) {
        continue; // a regex route (the pages) has no template
      }
      Object declared = route.getMetadata(Permission.METADATA_KEY);
      Set<HttpMethod> methods = route.methods() == null ? Set.of() : Set.copyOf(route.methods());
      entries.add(new Entry(methods, route.getPath(), AllowedMethods.template(route.getPath()), group,
          declared instanceof Permission p ? p : null));
    }
  }

  /** The permission a request with this method and path needs. */
  public Permission needed(HttpMethod method, String path) {
    for (Entry e : entries) {
      if (e.matches(method, path)) {
        return e.permission(method == HttpMethod.HEAD ? HttpMethod.GET : method);
      }
    }
    boolean api = path.equals("/api") || path.startsWith("/api/") || path.equals("/v1") || path.startsWith("/v1/")
        || path.equals("/metrics");
    return api || !pages.matcher(path).matches() ? Permission.READ : Permission.PUBLIC;
  }

  /** Every (method, path) → permission, for the documentation and the role-by-route tests. */
  public JsonArray toJson() {
    JsonArray out = new JsonArray();
    for (Entry e : entries) {
      Set<HttpMethod> methods = e.methods().isEmpty() ? Set.of(HttpMethod.GET, HttpMethod.POST) : e.methods();
      TreeSet<String> names = new TreeSet<>();
      methods.forEach(m -> names.add(m.name()));
      for (String m : names) {
        if (m.equals("HEAD")) {
          continue;
        }
        out.add(new JsonObject().put("method", m).put("path", e.path())
            .put("permission", e.permission(HttpMethod.valueOf(m)).wireName()));
      }
    }
    return out;
  }
}
