package dev.argus.bridge;

import dev.argus.bus.Addresses;
import dev.argus.http.Permission;
import io.vertx.ext.bridge.BridgeOptions;

import java.util.List;
import java.util.Optional;

/**
 * What crosses the bridge, and nothing else (both bridges share it; the README's table is this list):
 * <ul>
 *   <li>inbound (send with a reply): {@code argus.decide.onboarding} and {@code argus.decide.transaction} (decision
 *       requests; permission {@code decide}; the decide capability's internal {@code argus.decide.assess.*} do not
 *       cross),
 *       {@code argus.decisions.get}/{@code argus.decisions.list} ({@code read}), {@code argus.retrieve.search}
 *       ({@code search}; the caller's namespace limit is written into the request), {@code argus.agent.run.start}
 *       (start a chat run; {@code chat});</li>
 *   <li>outbound (register): {@code argus.decisions.created}, {@code argus.reviews.completed} and a run's events
 *       {@code argus.run.<runId>} ({@code read}).</li>
 * </ul>
 */
public final class BridgeAddresses {

  public static final String RUN_EVENTS_FAMILY = "argus\\.run\\.[A-Za-z0-9_-]{1,64}";

  public static final List<BridgedAddress> ALL = List.of(
      BridgedAddress.in(Addresses.DECIDE_ONBOARDING, Permission.DECIDE),
      BridgedAddress.in(Addresses.DECIDE_TRANSACTION, Permission.DECIDE),
      BridgedAddress.in(Addresses.DECISIONS_GET, Permission.READ),
      BridgedAddress.in(Addresses.DECISIONS_LIST, Permission.READ),
      BridgedAddress.in(Addresses.RETRIEVE_SEARCH, Permission.SEARCH),
      BridgedAddress.in(Addresses.AGENT_RUN_START, Permission.CHAT),
      BridgedAddress.out(Addresses.DECISIONS_CREATED, Permission.READ),
      BridgedAddress.out(Addresses.REVIEWS_COMPLETED, Permission.READ),
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
