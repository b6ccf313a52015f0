#!/usr/bin/env python3
"""Holds N concurrent chat SSE streams against one running Argus for a while and reports what happened.

Used by scripts/prove-load (which starts and stops Argus); standard library only. Each of --streams workers loops:
POST /api/chat (a question varied per request, so the response cache does not answer), read the SSE stream to its
`final` or `error` event, next. Measured: requests, completed, error events, HTTP errors, broken streams (ended
without a terminal event), time to the first `token` event (p50/p95/max), and the server's RSS (VmRSS of --pid) at
start, middle and end. Prints one JSON object.
"""
import argparse
import http.client
import json
import threading
import time
from collections import Counter

QUESTIONS = ["What is the refund policy?", "How are chargebacks handled?", "Which sellers need enhanced review?",
             "What are the signs of account takeover?", "How long do refunds take?", "What is a mule account?"]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def worker(args, deadline, stats, lock, n):
    i = 0
    while time.time() < deadline:
        i += 1
        q = f"{QUESTIONS[(n + i) % len(QUESTIONS)]} (stream {n}, request {i})"
        start = time.time()
        first_token = None
        outcome = "broken"
        try:
            conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=args.timeout)
            conn.request("POST", "/api/chat", body=json.dumps({"question": q}),
                         headers={"Content-Type": "application/json", "Accept": "text/event-stream"})
            resp = conn.getresponse()
            if resp.status != 200:
                outcome = f"http_{resp.status}"
                resp.read()
            else:
                event = None
                while True:
                    line = resp.readline()
                    if not line:
                        break
                    line = line.decode("utf-8", "replace").rstrip("\n")
                    if line.startswith("event: "):
                        event = line[7:]
                        if event == "token" and first_token is None:
                            first_token = time.time() - start
                        if event in ("final", "error"):
                            outcome = "completed" if event == "final" else "error_event"
                            break
            conn.close()
        except Exception as e:  # noqa: BLE001 - every failure is counted, not raised
            outcome = "exception:" + type(e).__name__
        with lock:
            stats["outcomes"][outcome] += 1
            if first_token is not None:
                stats["ttft"].append(first_token)


def pct(values, p):
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))] * 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    stats = {"outcomes": Counter(), "ttft": []}
    lock = threading.Lock()
    rss = {"start": rss_kib(args.pid)}
    deadline = time.time() + args.seconds
    threads = [threading.Thread(target=worker, args=(args, deadline, stats, lock, n), daemon=True)
               for n in range(args.streams)]
    for t in threads:
        t.start()
    time.sleep(args.seconds / 2)
    rss["middle"] = rss_kib(args.pid)
    for t in threads:
        t.join(args.seconds + args.timeout + 30)
    rss["end"] = rss_kib(args.pid)
    total = sum(stats["outcomes"].values())
    print(json.dumps({"streams": args.streams, "seconds": args.seconds, "requests": total,
                      "outcomes": dict(stats["outcomes"]),
                      "ttftMs": {"p50": pct(stats["ttft"], 50), "p95": pct(stats["ttft"], 95),
                                 "max": pct(stats["ttft"], 100), "n": len(stats["ttft"])},
                      "rssMiB": {k: round(v / 1024) for k, v in rss.items()}}, indent=2))


if __name__ == "__main__":
    main()
