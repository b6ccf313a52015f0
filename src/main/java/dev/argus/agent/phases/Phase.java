package dev.argus.agent.phases;

import dev.argus.bus.Addresses;

/** The five phases of a run, each with its wire name and the bus address its verticle serves. */
public enum Phase {
  THINK("think", Addresses.AGENT_THINK),
  PLAN("plan", Addresses.AGENT_PLAN),
  ACT("act", Addresses.AGENT_ACT),
  OBSERVE("observe", Addresses.AGENT_OBSERVE),
  REFLECT("reflect", Addresses.AGENT_REFLECT);

  private final String wire;
  private final String address;

  Phase(String wire, String address) {
    this.wire = wire;
    this.address = address;
  }

  /** The name used in run records, events and checkpoints ({@code think}, ...). */
  public String wire() {
    return wire;
  }

  public String address() {
    return address;
  }

  /** The phase of that wire name, or {@code null} when there is none (e.g. a checkpoint written by other code). */
  public static Phase fromWire(String name) {
    for (Phase p : values()) {
      if (p.wire.equals(name)) {
        return p;
      }
    }
    return null;
  }
}
