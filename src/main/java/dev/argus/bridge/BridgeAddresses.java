package dev.argus.bridge;

import dev.argus.bus.Addresses;
import dev.argus.http.Permission;
import io.vertx.ext.bridge.BridgeOptions;

import java.util.List;
import java.util.Optional;

/**
 * What crosses the bridge, and nothing else (both bridges share it; the README's table is this list):
 * <ul>
 *   <li>inbound (send with a reply): {@code argus.decide.*} (decision requests; permission {@code decide}),
 *       {@code argus.decisions.get}/{@code argus.decisions.list} ({@code read}), {@code argus.retrieve.search}
 *       ({@code search}; the caller's namespace limit is written into the request), {@code argus.agent.run.start}
 *       (start a chat run; {@code chat});</li>
 *   <li>outbound (register): {@code argus.decisions.created}, {@code argus.reviews.completed} and a run's events
 *       {@code argus.run.<runId>} ({@code read}).</li>
 * </ul>
 */
public final class BridgeAddresses {

  /** The decide capability's request family ({@code argus.decide.onboarding}, {@code argus.decide.transaction}). */
  public static final String DECIDE_FAMILY = "argus\\.decide\\.[a-z_.]{1,40}";
  public static final String DECISIONS_CREATED = "argus.decisions.created";
  public static final String REVIEWS_COMPLETED = "argus.reviews.completed";
  public static final String DECISIONS_GET = "argus.decisions.get";
  public static final String DECISIONS_LIST = "argus.decisions.list";
  public static final String RUN_EVENTS_FAMILY = "argus\\.run\\.[A-Za-z0-9_-]{1,64}";

  public static final List<BridgedAddress> ALL = List.of(
      BridgedAddress.inFamily(DECIDE_FAMILY, Permission.DECIDE),
      BridgedAddress.in(DECISIONS_GET, Permission.READ),
      BridgedAddress.in(DECISIONS_LIST, Permission.READ),
      BridgedAddress.in(Addresses.RETRIEVE_SEARCH, Permission.SEARCH),
      BridgedAddress.in(Addresses.AGENT_RUN_START, Permission.CHAT),
      BridgedAddress.out(DECISIONS_CREATED, Permission.READ),
      BridgedAddress.out(REVIEWS_COMPLETED, Permission.READ),
      BridgedAddress.outFamily(RUN_EVENTS_FAMILY, Permission.READ));

  private BridgeAddresses() {
  }

  /** The rule for sending to (inbound) or registering on (outbound) this address, or empty: not bridged. */
  public static Optional<BridgedAddress> find(String address, boolean inbound) {
    return ALL.stream().filter(a -> a.inbound() == inbound && a.matches(address)).findFirst();
  }

  /** The permitted addresses as the bridges' options (a second fence behind {@link BridgeGuard}). */
  public static <T extends BridgeOptions> T permit(T options) {
    for (BridgedAddress a : ALL) {
      if (a.inbound()) {
        options.addInboundPermitted(a.permitted());
      } else {
        options.addOutboundPermitted(a.permitted());
      }
    }
    return options;
  }
}
