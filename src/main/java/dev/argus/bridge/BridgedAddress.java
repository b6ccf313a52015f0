package dev.argus.bridge;

import dev.argus.http.Permission;
import io.vertx.ext.bridge.PermittedOptions;

import java.util.regex.Pattern;

/**
 * One address (or address family) that crosses the bridge, in one direction, and the permission a caller needs
 * for it: {@code inbound} addresses take requests from upstream systems ({@code send} with a reply), outbound ones
 * may be subscribed to ({@code register}).
 */
public record BridgedAddress(String address, Pattern regex, boolean inbound, Permission permission) {

  public static BridgedAddress in(String address, Permission p) {
    return new BridgedAddress(address, null, true, p);
  }

  public static BridgedAddress inFamily(String regex, Permission p) {
    return new BridgedAddress(null, Pattern.compile(regex), true, p);
  }

  public static BridgedAddress out(String address, Permission p) {
    return new BridgedAddress(address, null, false, p);
  }

  public static BridgedAddress outFamily(String regex, Permission p) {
    return new BridgedAddress(null, Pattern.compile(regex), false, p);
  }

  public boolean matches(String a) {
    return a != null && (address != null ? address.equals(a) : regex.matcher(a).matches());
  }

  PermittedOptions permitted() {
    return address != null ? new PermittedOptions().setAddress(address)
        : new PermittedOptions().setAddressRegex(regex.pattern());
  }

  /** The address or family, as written in the README's table. */
  public String describe() {
    return address != null ? address : regex.pattern();
  }
}
