package dev.argus.graph;

import dev.argus.common.ApiException;
import dev.argus.graph.normalize.Domains;
import dev.argus.graph.normalize.Emails;
import dev.argus.graph.normalize.IpAddrs;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code email_risk} and {@code ip_risk}. E-mail: disposable domain (the shipped list), free-mail provider, mismatch
 * between the e-mail's domain and the business's own domain (website), how many other subjects use the address; the
 * domain's age is unknown (no registration data), and said so. IP: flagged ranges (conf), fan-out (other subjects on
 * the same IP and on its /24 or /64), and country mismatch reported unknown (no IP geolocation data is configured).
 */
public final class IdentifierRisk {

  private final GraphStore store;
  private final RiskLists lists;
  private final int fanout;

  public IdentifierRisk(GraphStore store, RiskLists lists, int fanout) {
    this.store = store;
    this.lists = lists;
    this.fanout = fanout;
  }

  static JsonObject signal(String name, Object value, String cite, String detail) {
    JsonObject j = new JsonObject().put("kind", "signal").put("name", name).put("value", value).put("detail", detail);
    return cite == null ? j : j.put("cite", cite);
  }

  static JsonObject unknown(String name, String reason) {
    return new JsonObject().put("kind", "signal").put("name", name).put("status", "unknown").put("reason", reason);
  }

  /** The identifiers of {@code type} a subject uses (its direct neighbours). */
  private Future<List<String>> identifiersOf(String subject, String type, Long asOf) {
    return store.incident(List.of(subject), fanout, 0, asOf).map(m -> {
      List<String> out = new ArrayList<>();
      for (GraphStore.Edge e : m.getOrDefault(subject, List.of())) {
        String o = e.other(subject);
        if (type.equals(EntityIds.typeOf(o))) {
          out.add(o);
        }
      }
      return out;
    });
  }

  /** Other subjects at {@code node} (at most fanout; {@code more} when there are more). */
  private Future<JsonObject> users(String node, String except, Long asOf) {
    return store.incident(List.of(node), fanout, 0, asOf).compose(m -> {
      List<GraphStore.Edge> edges = m.getOrDefault(node, List.of());
      List<String> others = edges.stream().map(e -> e.other(node)).filter(o -> !o.equals(except)).distinct().toList();
      return store.nodes(others, asOf).map(found -> {
        List<String> subjects = others.stream().filter(o -> found.containsKey(o) && Types.isSubject(found.get(o).type()))
            .sorted().toList();
        return new JsonObject().put("subjects", new JsonArray(subjects)).put("more", edges.size() > fanout);
      });
    });
  }

  public Future<JsonObject> email(JsonObject req, Long asOf) {
    String sellerId = req.getString("sellerId");
    String given = req.getString("email");
    Future<List<String>> emails = given != null ? Future.succeededFuture(List.of(Emails.canonical(given)
        .map(e -> EntityIds.of(Types.EMAIL, e)).orElseThrow(() -> ApiException.badRequest("invalid_parameter",
            "'email' is not an e-mail address"))))
        : identifiersOf(sellerId, Types.EMAIL, asOf);
    Future<String> business = req.getString("businessDomain") != null
        ? Future.succeededFuture(Domains.of(req.getString("businessDomain")).orElse(null))
        : sellerId == null ? Future.succeededFuture(null)
        : identifiersOf(sellerId, Types.DOMAIN, asOf).map(d -> d.isEmpty() ? null : EntityIds.value(d.get(0)));
    return Future.all(emails, business).compose(v -> {
      List<String> list = emails.result();
      String biz = business.result();
      if (list.isEmpty()) {
        JsonArray items = new JsonArray().add(unknown("email", "no e-mail address known for '" + sellerId + "'"));
        return Future.succeededFuture(new JsonObject().put("items", items).put("signals", new JsonObject()));
      }
      String emailId = list.get(0);
      String address = EntityIds.value(emailId);
      String domain = Emails.domain(address);
      boolean disposable = lists.disposable(domain);
      boolean free = lists.freeMail(domain);
      String cite = EntityIds.citeEntity(Types.EMAIL, emailId);
      return users(emailId, sellerId, asOf).map(u -> {
        JsonArray items = new JsonArray();
        JsonObject signals = new JsonObject();
        items.add(signal("disposable_domain", disposable, cite, domain + (disposable ? " is" : " is not")
            + " on the disposable-domain list (" + lists.disposableCount() + " domains)"));
        items.add(signal("free_mail", free, cite, domain + (free ? " is" : " is not") + " a free-mail provider"));
        signals.put("disposableDomain", disposable ? 1 : 0).put("freeMail", free ? 1 : 0);
        if (biz == null) {
          items.add(unknown("business_domain_mismatch", "no business domain (website) known"));
        } else {
          boolean mismatch = !domain.equals(biz) && !domain.endsWith("." + biz);
          items.add(signal("business_domain_mismatch", mismatch, cite, "e-mail domain " + domain + " vs business domain "
              + biz));
          signals.put("businessDomainMismatch", mismatch ? 1 : 0);
        }
        JsonArray others = u.getJsonArray("subjects");
        items.add(signal("shared_email", others.size(), cite, "other subjects using " + address + ": " + others.encode()
            + (u.getBoolean("more") ? " (more not shown)" : "")));
        signals.put("sharedEmailUsers", others.size());
        items.add(unknown("domain_age", "no domain registration data is available"));
        return new JsonObject().put("email", address).put("items", items).put("signals", signals);
      });
    });
  }

  public Future<JsonObject> ip(JsonObject req, Long asOf) {
    String sellerId = req.getString("sellerId");
    String given = req.getString("ip");
    Future<List<String>> ips = given != null ? Future.succeededFuture(List.of(IpAddrs.address(given)
        .map(a -> EntityIds.of(Types.IP, a)).orElseThrow(() -> ApiException.badRequest("invalid_parameter",
            "'ip' is not an IP address"))))
        : identifiersOf(sellerId, Types.IP, asOf);
    return ips.compose(list -> {
      JsonArray items = new JsonArray();
      JsonObject signals = new JsonObject();
      if (list.isEmpty()) {
        items.add(unknown("ip", "no IP address known for '" + sellerId + "'"));
        return Future.succeededFuture(new JsonObject().put("items", items).put("signals", signals));
      }
      List<Future<JsonObject>> each = new ArrayList<>();
      int flaggedCount = 0;
      for (String ipId : list.subList(0, Math.min(10, list.size()))) {
        String ip = EntityIds.value(ipId);
        String cite = EntityIds.citeEntity(Types.IP, ipId);
        List<RiskLists.Range> flagged = lists.flaggedRanges(ip);
        flaggedCount += flagged.isEmpty() ? 0 : 1;
        for (RiskLists.Range r : flagged) {
          items.add(signal("flagged_range", r.cidr(), cite, ip + " is in " + r.cidr() + ": " + r.reason()));
        }
        String net = EntityIds.of(Types.IPNET, IpAddrs.network(ip).orElse(ip));
        each.add(Future.all(users(ipId, sellerId, asOf), store.incident(List.of(net), fanout, 0, asOf)).map(v -> {
          JsonObject u = v.resultAt(0);
          Map<String, List<GraphStore.Edge>> netEdges = v.resultAt(1);
          int netIps = (int) netEdges.getOrDefault(net, List.of()).stream().map(e -> e.other(net))
              .filter(o -> !o.equals(ipId)).distinct().count();
          return new JsonObject().put("ip", ip).put("cite", cite).put("users", u).put("netIps", netIps)
              .put("network", EntityIds.value(net));
        }));
      }
      int flaggedTotal = flaggedCount;
      return Future.all(each).map(all -> {
        int maxUsers = 0;
        int maxNet = 0;
        for (JsonObject r : all.<JsonObject>list()) {
          int n = r.getJsonObject("users").getJsonArray("subjects").size();
          maxUsers = Math.max(maxUsers, n);
          maxNet = Math.max(maxNet, r.getInteger("netIps"));
          items.add(signal("shared_ip_users", n, r.getString("cite"), "other subjects on " + r.getString("ip") + ": "
              + r.getJsonObject("users").getJsonArray("subjects").encode()
              + (r.getJsonObject("users").getBoolean("more") ? " (more not shown)" : "")));
          items.add(signal("network_ips", r.getInteger("netIps"), r.getString("cite"), "other IPs seen in "
              + r.getString("network")));
        }
        signals.put("flaggedIps", flaggedTotal).put("sharedIpUsers", maxUsers).put("networkIps", maxNet)
            .put("sharedIpFanout", maxUsers >= lists.sharedIpThreshold() ? 1 : 0);
        items.add(unknown("country_mismatch", "no IP geolocation data is configured"));
        return new JsonObject().put("items", items).put("signals", signals);
      });
    });
  }
}
