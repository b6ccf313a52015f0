#!/usr/bin/env python3
"""Holds N concurrent chat SSE streams against one running Argus for a while and reports what happened.

Used by scripts/prove-load (which starts and stops Argus); standard library only. Each of --streams workers loops:
POST /api/chat (a question varied per request, so the response cache does not answer), read the SSE stream to its
`final` or `error` event, next. Measured: requests, completed, error events, HTTP errors, broken streams (ended
without a terminal event), how many chats waited (their stream began with a `queued` event), and p50/p95/max of: the
time to the first event (`queued` for a chat that waits, else `run`: how soon the server answers at all), the time to
the `run` event (the run was accepted: the wait in the admission queue plus the run's start) and the time to the first
`token` event (from the request, so it includes any wait); the server's RSS (VmRSS of --pid) and live heap (the total
of a `jcmd GC.class_histogram`, which collects first) at start, middle and end, and where the server's time went,
from its /metrics before and after: process CPU seconds per completed chat, mean run and phase durations, and per
worker pool the mean wait in its queue and the mean time a task held a thread. Prints one JSON object.
"""
import argparse
import http.client
import json
import re
import subprocess
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


def live_heap_mib(pid):
    """The live heap (a class histogram collects first), or -1 when jcmd is not there."""
    try:
        out = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True,
                             timeout=120).stdout
        total = [line for line in out.splitlines() if line.startswith("Total")]
        return round(int(total[0].split()[2]) / 1048576) if total else -1
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return -1


def scrape(port):
    """name{labels} -> value of the server's Prometheus text."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    out = {}
    for line in text.splitlines():
        m = re.match(r"^([a-z_]+)(\{[^}]*\})? ([0-9.eE+-]+|NaN)$", line)
        if m:
            out[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return out


def where_time_went(before, after, completed):
    def delta(key):
        return after.get(key, 0.0) - before.get(key, 0.0)

    def mean_ms(prefix, labels):
        n = delta(prefix + "_count" + labels)
        return round(1000 * delta(prefix + "_sum" + labels) / n, 1) if n else None

    out = {"cpuSecondsPerCompletedChat": round(delta("process_cpu_time_ns_total") / 1e9 / completed, 3)
           if completed else None}
    runs = [k[len("argus_run_duration_seconds_count"):] for k in after
            if k.startswith("argus_run_duration_seconds_count") and 'status="completed"' in k]
    out["runMeanMs"] = {k: mean_ms("argus_run_duration_seconds", k) for k in runs}
    phases = [k[len("argus_phase_duration_seconds_count"):] for k in after
              if k.startswith("argus_phase_duration_seconds_count")]
    out["phaseMeanMs"] = {re.sub(r'[{}"]', "", k): mean_ms("argus_phase_duration_seconds", k) for k in phases
                          if delta("argus_phase_duration_seconds_count" + k)}
    pools = [k[len("vertx_pool_queue_time_seconds_count"):] for k in after
             if k.startswith("vertx_pool_queue_time_seconds_count")]
    out["pools"] = {re.search(r'pool_name="([^"]*)"', k).group(1): {
        "tasks": int(delta("vertx_pool_queue_time_seconds_count" + k)),
        "meanQueueMs": mean_ms("vertx_pool_queue_time_seconds", k),
        "meanUseMs": mean_ms("vertx_pool_usage_seconds", k)} for k in pools
        if delta("vertx_pool_queue_time_seconds_count" + k)}
    return out


def worker(args, deadline, stats, lock, n, measured_from):
    i = 0
    while time.time() < deadline:
        i += 1
        q = f"{QUESTIONS[(n + i) % len(QUESTIONS)]} (stream {n}, request {i})"
        start = time.time()
        first_token = None
        first_event = None
        run_event = None
        queued = False
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
                        if first_event is None:
                            first_event = time.time() - start
                        if event == "queued":
                            queued = True
                        if event == "run" and run_event is None:
                            run_event = time.time() - start
                        if event == "token" and first_token is None:
                            first_token = time.time() - start
                        if event in ("final", "error"):
                            outcome = "completed" if event == "final" else "error_event"
                            break
            conn.close()
        except Exception as e:  # noqa: BLE001 - every failure is counted, not raised
            outcome = "exception:" + type(e).__name__
        if start < measured_from:
            continue  # warm-up: served, not counted
        with lock:
            stats["outcomes"][outcome] += 1
            if first_token is not None:
                stats["ttft"].append(first_token)
            if first_event is not None:
                stats["ttfe"].append(first_event)
            if run_event is not None:
                stats["run"].append(run_event)
            stats["queued"] += queued


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
    ap.add_argument("--warmup", type=int, default=0, help="seconds of load before measuring (not counted)")
    args = ap.parse_args()
    stats = {"outcomes": Counter(), "ttft": [], "ttfe": [], "run": [], "queued": 0}
    lock = threading.Lock()
    rss = {"beforeLoad": rss_kib(args.pid)}
    measured_from = time.time() + args.warmup
    deadline = measured_from + args.seconds
    threads = [threading.Thread(target=worker, args=(args, deadline, stats, lock, n, measured_from), daemon=True)
               for n in range(args.streams)]
    for t in threads:
        t.start()
    time.sleep(max(0.0, measured_from - time.time()))
    heap = {"start": live_heap_mib(args.pid)}
    rss["start"] = rss_kib(args.pid)
    before = scrape(args.port)
    time.sleep(args.seconds / 2)
    rss["middle"] = rss_kib(args.pid)
    heap["middle"] = live_heap_mib(args.pid)
    for t in threads:
        t.join(args.seconds + args.timeout + 30)
    rss["end"] = rss_kib(args.pid)
    after = scrape(args.port)
    heap["end"] = live_heap_mib(args.pid)
    total = sum(stats["outcomes"].values())
    print(json.dumps({"streams": args.streams, "seconds": args.seconds, "warmupSeconds": args.warmup,
                      "requests": total,
                      "outcomes": dict(stats["outcomes"]),
                      "chatsPerSecond": round(stats["outcomes"]["completed"] / args.seconds, 2),
                      "ttftMs": {"p50": pct(stats["ttft"], 50), "p95": pct(stats["ttft"], 95),
                                 "max": pct(stats["ttft"], 100), "n": len(stats["ttft"])},
                      "firstEventMs": {"p50": pct(stats["ttfe"], 50), "p95": pct(stats["ttfe"], 95),
                                       "max": pct(stats["ttfe"], 100)},
                      "queued": stats["queued"],
                      "runEventMs": {"p50": pct(stats["run"], 50), "p95": pct(stats["run"], 95),
                                     "max": pct(stats["run"], 100)},
                      "rssMiB": {k: round(v / 1024) for k, v in rss.items()},
                      "liveHeapMiB": heap,
                      "server": where_time_went(before, after, stats["outcomes"]["completed"])}, indent=2))


if __name__ == "__main__":
    main()
