#!/usr/bin/env python3
"""SSE clients for scripts/cluster-demo --failover / --kills. Standard library only.

Starts --chats chat runs (POST /api/chat) and --decisions decision runs (POST /api/decisions/onboarding, streamed)
at once, client i on node i % len(ports). Each client reads its stream; when the stream is cut before a `final` or
`error` event (its node was killed) it reconnects to the next node with GET /api/runs/{runId}/events and
`Last-Event-ID: <last id it read>`, until the run's terminal event or --deadline seconds. When every client has its
run id (the `run` event) it writes the file --started-file, so the caller knows every run is in flight. Writes one JSON
line per client to --out: kind, port, runId, the event ids read (in order), terminal events read, reconnects, error.
"""
import argparse
import http.client
import json
import threading
import time


def read_sse(resp, on_event):
    """Parses an SSE response, calls on_event(id, type, data) per event; returns when the stream ends."""
    ev_id, ev_type, data = None, "message", []
    while True:
        line = resp.readline()
        if not line:
            return
        line = line.decode("utf-8", "replace").rstrip("\r\n")
        if line == "":
            if data or ev_id is not None:
                on_event(ev_id, ev_type, "\n".join(data))
            ev_id, ev_type, data = None, "message", []
        elif line.startswith("id:"):
            ev_id = line[3:].strip()
        elif line.startswith("event:"):
            ev_type = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ports", required=True, help="comma-separated HTTP ports of the nodes")
    ap.add_argument("--chats", type=int, default=20)
    ap.add_argument("--decisions", type=int, default=20)
    ap.add_argument("--sellers", type=int, default=100, help="decisions ask for S-000001.. up to this seller")
    ap.add_argument("--offset", type=int, default=0, help="varies questions and sellers between batches")
    ap.add_argument("--deadline", type=float, default=240)
    ap.add_argument("--started-file", default=None)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    ports = [int(p) for p in a.ports.split(",")]
    deadline = time.time() + a.deadline
    results = []
    lock = threading.Lock()
    total = a.chats + a.decisions
    have_run = set()

    def client(i):
        kind = "chat" if i < a.chats else "decision"
        port = ports[i % len(ports)]
        r = {"kind": kind, "port": port, "runId": None, "ids": [], "terminals": [], "reconnects": 0, "error": None,
             "done": False}
        with lock:
            results.append(r)  # written out even if it is still reading at the deadline

        def on_event(ev_id, ev_type, data):
            if ev_id is not None and ev_id.isdigit():
                r["ids"].append(int(ev_id))
            try:
                body = json.loads(data) if data else {}
            except ValueError:
                body = {}
            if ev_type == "run" and r["runId"] is None:
                r["runId"] = body.get("runId")
                with lock:
                    have_run.add(i)
                    if len(have_run) == total and a.started_file:
                        open(a.started_file, "w").write(str(time.time()))
            if ev_type in ("final", "error"):
                r["terminals"].append(ev_type if ev_type == "final" else "error: " + str(body.get("error"))[:200])

        try:
            n = a.offset + i
            if kind == "chat":
                path, body = "/api/chat", {"question": f"How are refunds of digital goods handled? (client {n})"}
            else:
                path, body = "/api/decisions/onboarding", {"sellerId": "S-%06d" % (1 + n % a.sellers)}
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=max(5, deadline - time.time()))
            c.request("POST", path, body=json.dumps(body),
                      headers={"Content-Type": "application/json", "Accept": "text/event-stream"})
            resp = c.getresponse()
            if resp.status != 200:
                r["error"] = f"HTTP {resp.status}: {resp.read()[:200].decode('utf-8', 'replace')}"
            else:
                read_sse(resp, on_event)
        except (OSError, http.client.HTTPException) as e:
            r["error"] = f"{type(e).__name__}: {e}"
        # cut before its end: reconnect to the other nodes in turn, replaying after the last id read
        k = ports.index(port)
        while r["runId"] and not r["terminals"] and time.time() < deadline:
            k += 1
            p = ports[k % len(ports)]
            r["reconnects"] += 1
            try:
                c = http.client.HTTPConnection("127.0.0.1", p, timeout=max(5, deadline - time.time()))
                last = r["ids"][-1] if r["ids"] else 0
                c.request("GET", f"/api/runs/{r['runId']}/events", headers={"Last-Event-ID": str(last),
                                                                           "Accept": "text/event-stream"})
                resp = c.getresponse()
                if resp.status == 200:
                    read_sse(resp, on_event)
                elif resp.status == 204:
                    r["error"] = f"204 from port {p}: the run ended before id {last} was followed by an end"
                    break
                else:
                    resp.read()
                    time.sleep(1)
            except (OSError, http.client.HTTPException):
                time.sleep(1)
        r["done"] = True

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(total)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(1, deadline + 30 - time.time()))
    with open(a.out, "w") as f:
        for r in sorted(results, key=lambda x: (x["kind"], x["port"])):
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
