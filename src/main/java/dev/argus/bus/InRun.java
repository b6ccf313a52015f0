package dev.argus.bus;

import io.vertx.core.eventbus.DeliveryOptions;

/**
 * Delivery of the requests a run makes while it executes — its tools (search, graph, records), the subject it
 * resolves, its assessors — to this node's consumers only. In cluster mode the entry requests (a search, a chat, a
 * decision) are spread over the nodes by the clustered bus, and the node that takes a run executes it whole: its
 * phases are local already, and so are its tool calls, which would otherwise go round-robin to the other nodes (two
 * of three calls over TCP with three nodes) for no gain, since every node deploys every capability. Without a
 * cluster this changes nothing.
 */
public final class InRun {

  private InRun() {
  }

  /** Local delivery with {@code timeoutMs} as the send timeout. */
  public static DeliveryOptions delivery(long timeoutMs) {
    return new DeliveryOptions().setSendTimeout(timeoutMs).setLocalOnly(true);
  }
}
