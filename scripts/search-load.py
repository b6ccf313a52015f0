#!/usr/bin/env python3
"""Searches/s (or decisions/s with --kind decision) against one or more Argus nodes: --concurrency clients, each
sending POST /api/search with varied queries (or POST /api/decisions/onboarding for sellers S-000001..--sellers) to
the nodes in turn, for --seconds. Standard library only. Prints one JSON object: requests, per-status counts,
requests/s answered 200 (searchesPerSecond or decisionsPerSecond), latency p50/p95 (ms)."""
import argparse
import http.client
import json
import threading
import time
from collections import Counter

TERMS = ["refund", "chargeback", "seller", "account takeover", "mule", "device", "address", "policy", "review",
         "dispute", "merchant", "payment", "risk", "identity", "velocity", "friendly fraud"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ports", required=True, help="comma-separated HTTP ports")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--kind", choices=["search", "decision"], default="search")
    ap.add_argument("--sellers", type=int, default=100)
    a = ap.parse_args()
    ports = [int(p) for p in a.ports.split(",")]
    lock = threading.Lock()
    statuses, lat = Counter(), []
    deadline = time.time() + a.seconds

    def client(n):
        i = 0
        conns = {p: http.client.HTTPConnection("127.0.0.1", p, timeout=60) for p in ports}
        while time.time() < deadline:
            i += 1
            port = ports[(n + i) % len(ports)]
            q = f"{TERMS[(n * 7 + i) % len(TERMS)]} {TERMS[(n + i * 3) % len(TERMS)]} {n}-{i}"
            t = time.time()
            try:
                c = conns[port]
                if a.kind == "search":
                    c.request("POST", "/api/search", body=json.dumps({"query": q, "topK": 10}),
                              headers={"Content-Type": "application/json"})
                else:
                    seller = "S-%06d" % (1 + (n * 31 + i) % a.sellers)
                    c.request("POST", "/api/decisions/onboarding", body=json.dumps({"sellerId": seller}),
                              headers={"Content-Type": "application/json"})
                r = c.getresponse()
                r.read()
                s = r.status
            except Exception as e:  # noqa: BLE001 - counted
                s = type(e).__name__
                conns[port] = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            with lock:
                statuses[s] += 1
                lat.append(time.time() - t)

    ts = [threading.Thread(target=client, args=(n,)) for n in range(a.concurrency)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    lat.sort()
    ok = statuses.get(200, 0)
    print(json.dumps({"nodes": len(ports), "concurrency": a.concurrency, "seconds": a.seconds,
                      "requests": sum(statuses.values()), "statuses": {str(k): v for k, v in statuses.items()},
                      ("searchesPerSecond" if a.kind == "search" else "decisionsPerSecond"): round(ok / a.seconds, 1),
                      "p50Ms": round(lat[len(lat) // 2] * 1000) if lat else None,
                      "p95Ms": round(lat[int(len(lat) * 0.95)] * 1000) if lat else None}))


if __name__ == "__main__":
    main()
