/**
 * Cluster mode ({@code cluster.enabled}): the Hazelcast cluster manager behind the Vert.x clustered event bus, and
 * the options of a clustered Vert.x instance. Infrastructure: knows no capability. Run ownership (leases) lives with
 * the runs ({@code runs.RunLeases}, {@code agent.RunOwnership}).
 */
package dev.argus.cluster;
