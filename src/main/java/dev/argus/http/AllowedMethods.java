package dev.argus.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The methods a path answers, for the {@code Allow} header of a 405 (Vert.x Web sets it only when no 405 error
 * handler is registered, and ours renders the JSON error). Built once from the router's method-restricted routes
 * with a path template ({@code /api/documents/:id}, prefixes ending in {@code *}), and the pages' pattern.
 */
final class AllowedMethods {

  private record Entry(Pattern path, Set<HttpMethod> methods) {
  }

  private final List<Entry> entries = new ArrayList<>();

  AllowedMethods(Router router, Pattern pages, Set<HttpMethod> pageMethods) {
    for (Route route : router.getRoutes()) {
      if (route.methods() == null || route.methods().isEmpty() || route.getPath() == null) {
        continue;
      }
      entries.add(new Entry(template(route.getPath()), Set.copyOf(route.methods())));
    }
    entries.add(new Entry(pages, pageMethods));
  }

  /** The methods, comma-separated in alphabetical order, or empty when no route has this path. */
  String allow(String path) {
    TreeSet<String> names = new TreeSet<>();
    for (Entry e : entries) {
      if (e.path().matcher(path).matches()) {
        e.methods().forEach(m -> names.add(m.name()));
      }
    }
    return String.join(", ", names);
  }

  static Pattern template(String path) {
    StringBuilder regex = new StringBuilder();
    for (String part : path.split("(?=/)")) {
      if (part.startsWith("/:")) {
        regex.append("/[^/]+");
      } else if (part.endsWith("*")) {
        regex.append(Pattern.quote(part.substring(0, part.length() - 1))).append(".*");
      } else {
        regex.append(Pattern.quote(part));
      }
    }
    return Pattern.compile(regex + "/?");
  }
}
