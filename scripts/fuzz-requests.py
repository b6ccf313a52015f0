#!/usr/bin/env python3
"""Fires malformed and well-formed HTTP requests at a running Argus over raw sockets and reports what it got.

Used by scripts/fuzz (which starts and stops Argus); standard library only. Every request goes on its own
connection. A request "hangs" when neither a whole response nor the connection's end arrives within --hang-seconds.
Prints one JSON object: requests, per-status counts, 5xx (with samples), hangs (with samples), responses that are
not the API's JSON error shape, and responses that leak a stack trace.
"""
import argparse
import json
import random
import socket
import threading
import time
import uuid
from collections import Counter

from fuzz_values import rand_text, rand_value

ROUTES_GET = ["/api/health", "/api/health/live", "/api/health/ready", "/metrics", "/api/documents",
              "/api/documents?namespace=fuzz&limit=5", "/api/documents?offset=-1", "/api/documents?limit=abc",
              "/", "/index.html", "/chat.html", "/app.js", "/app.css", "/chat.js", "/nope.html", "/api/nope", "/v1/nope"]
JSON_POST = ["/api/search", "/api/chat", "/api/documents", "/api/eval/retrieval", "/v1/chat/completions"]
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
NUL = "\\u0000"


def json_body(rng, route):
    """A JSON body for a route: valid-looking, with a field made wrong, or not JSON at all."""
    good = {
        "/api/search": {"query": "refund abuse", "topK": 5, "namespace": "fuzz"},
        "/api/chat": {"question": "How long do refunds take?"},
        "/api/documents": {"id": "fz-%d" % rng.randrange(20), "title": "Fuzz doc", "namespace": "fuzz",
                           "text": "Refund abuse is reviewed weekly. Mule accounts share devices."},
        "/api/eval/retrieval": {"queries": [{"query": "refund", "relevant": ["fz-1"]}]},
        "/v1/chat/completions": {"model": "argus", "messages": [{"role": "user", "content": "What is refund abuse?"}]},
    }[route]
    mode = rng.randrange(10)
    if mode == 0:
        return ""
    if mode == 1:
        return json.dumps(good)[: rng.randrange(1, len(json.dumps(good)))]
    if mode == 2:
        return json.dumps(rand_value(rng, NUL))
    if mode == 3:
        return "[" * rng.randrange(1, 3000)
    if mode in (4, 5, 6):
        body = dict(good)
        key = rng.choice(list(body.keys()) + ["filters", "retrievers", "fusion", "metadata", "stream", "expand"])
        body[key] = rand_value(rng, NUL)
        return json.dumps(body)
    if mode == 7:
        text = json.dumps(good)
        return text.replace('"', '"' + NUL, 1) if rng.random() < 0.5 else text.replace("refund", "re" + NUL + "fund")
    return json.dumps(good)


def multipart(rng):
    b = rng.choice(["XyZ", "", "a" * 80, "--"])
    name = rng.choice(['name="file"; filename="f%d.txt"' % rng.randrange(5), 'filename="a.md"', 'name="file"',
                       'name="namespace"', 'name="file"; filename="evil.pdf"', 'name="file"; filename="b.jsonl"'])
    extra = "X-Long: " + "a" * 5000 + "\r\n" if rng.random() < 0.1 else ""
    content = rng.choice(["plain notes about refunds", "", "bin\x00ary", '{"title":"J","text":"line"}\n{bad',
                          "# Title\n\nMarkdown body.", "fuzz"])
    body = "--%s\r\nContent-Disposition: form-data; %s\r\n%sContent-Type: text/plain\r\n\r\n%s\r\n" % (
        b, name, extra, content)
    if rng.random() < 0.7:
        body += "--%s--\r\n" % b
    ctype = "multipart/form-data" + ("" if rng.random() < 0.1 else "; boundary=" + b)
    return ctype, body


class Target:
    def __init__(self, port):
        self.port = port
        self.job_ids = []
        self.run_ids = []
        self.lock = threading.Lock()


def build(rng, target):
    """One request: (label, bytes). Mostly well-framed requests with bad content, some bad framing."""
    host = "Host: localhost:%d\r\n" % target.port
    kind = rng.randrange(100)
    if kind < 10:
        path = rng.choice(ROUTES_GET)
        return "get " + path, ("%s %s HTTP/1.1\r\n%s\r\n" % (rng.choice(["GET", "HEAD"]), path, host)).encode()
    if kind < 45:
        route = rng.choice(JSON_POST)
        if route == "/api/chat" and rng.random() < 0.6:
            route = "/api/search"  # chats stream and cost more: fewer of them
        body = json_body(rng, route).encode("utf-8", "surrogatepass")
        ctype = rng.choice(["application/json"] * 8 + ["text/plain", "", "application/json; charset=latin1"])
        q = rng.choice(["", "?wait=true", "?replace=true", "?replace=maybe", "?namespace=fuzz", "?namespace=BAD!",
                        "?%ZZ=1", "?namespace=%00"])
        head = "POST %s%s HTTP/1.1\r\n%s%sContent-Length: %d\r\n" % (
            route, q if route == "/api/documents" else rng.choice(["", "?%ZZ", ""]), host,
            "Content-Type: %s\r\n" % ctype if ctype else "", len(body))
        if rng.random() < 0.1:
            head += rng.choice(["Origin: http://evil.example\r\n", "Sec-Fetch-Site: cross-site\r\n",
                                "Origin: null\r\n", "Origin: http://localhost:%d\r\n" % target.port])
        return "post " + route, head.encode() + b"\r\n" + body
    if kind < 55:
        ctype, body = multipart(rng)
        data = body.encode("latin1")
        cl = len(data) + (rng.choice([0, 0, 0, 50]))  # sometimes announced longer than sent: unterminated
        return "multipart", ("POST /api/documents HTTP/1.1\r\n%sContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (
            host, ctype, cl)).encode() + data
    if kind < 60:
        lines = ['{"id":"jl-%d","title":"L","text":"line text"}' % rng.randrange(10), "", "{bad", "[1]",
                 '{"title":"N","text":"x%s"}' % NUL, '{"title":"T"}']
        body = "\n".join(rng.choice(lines) for _ in range(rng.randrange(0, 5))).encode()
        return "jsonl", ("POST /api/documents HTTP/1.1\r\n%sContent-Type: application/x-ndjson\r\n"
                         "Content-Length: %d\r\n\r\n" % (host, len(body))).encode() + body
    if kind < 64:
        lines = ['{"id":"s-%d","kind":"seller","name":"Shop %d","email":"a%d@example.com"}' % ((rng.randrange(9),) * 3),
                 '{"id":"t-1","kind":"transaction","sellerId":"s-1","amount":12.5,"currency":"EUR"}',
                 '{"kind":"seller"}', "{bad", "[]", '{"id":"x%s","kind":"seller"}' % NUL, "", '"just a string"']
        body = "\n".join(rng.choice(lines) for _ in range(rng.randrange(0, 6))).encode()
        q = rng.choice(["", "?wait=true", "?wait=maybe"])
        ctype = rng.choice(["application/jsonl", "application/x-ndjson", "application/json", ""])
        if rng.random() < 0.6:
            return "records", ("POST /api/records%s HTTP/1.1\r\n%s%sContent-Length: %d\r\n\r\n" % (
                q, host, "Content-Type: %s\r\n" % ctype if ctype else "", len(body))).encode() + body
        path = rng.choice(["/api/records", "/api/records?kind=seller&limit=5", "/api/records?kind=bogus",
                           "/api/records?asOf=yesterday", "/api/records?limit=-1", "/api/records/s-1",
                           "/api/records/s-1?asOf=2020-01-01T00:00:00Z", "/api/records/jobs/%s" % uuid.uuid4(),
                           "/api/records/jobs/%s/events" % uuid.uuid4(), "/api/records/" + "r" * 300])
        method = rng.choice(["GET"] * 4 + ["HEAD", "DELETE"])
        return "records " + method, ("%s %s HTTP/1.1\r\n%s\r\n" % (method, path, host)).encode()
    if kind < 70:
        with target.lock:
            job = rng.choice(target.job_ids) if target.job_ids and rng.random() < 0.7 else str(uuid.uuid4())
            run = rng.choice(target.run_ids) if target.run_ids and rng.random() < 0.7 else "r-" + rand_text(rng, 5)
        path = rng.choice(["/api/ingest/jobs/%s" % job, "/api/ingest/jobs/%s/events" % job, "/api/runs/%s" % run,
                           "/api/runs/%s/events" % run, "/api/documents/fz-%d" % rng.randrange(20),
                           "/api/documents/%s" % "%ZZ", "/api/documents/a%00b", "/api/documents/" + "x" * 400])
        extra = rng.choice(["", "Last-Event-ID: 1000000\r\n", "Last-Event-ID: abc\r\n", "Last-Event-ID: 0\r\n"])
        method = rng.choice(["GET"] * 5 + ["HEAD", "DELETE", "POST", "PUT"])
        body = "Content-Length: 0\r\n" if method in ("POST", "PUT") else ""
        return "id " + method, ("%s %s HTTP/1.1\r\n%s%s%s\r\n" % (method, path, host, extra, body)).encode()
    if kind < 78:
        method = rng.choice(METHODS + ["X%07d" % rng.randrange(10 ** 7), "BREW", "get", "M-SEARCH"])
        path = rng.choice(ROUTES_GET + JSON_POST + ["*", "/api/documents/fz-1"])
        return "method " + method, ("%s %s HTTP/1.1\r\n%sContent-Length: 0\r\n\r\n" % (method, path, host)).encode()
    if kind < 88:
        choice = rng.randrange(10)
        if choice == 0:
            return "no host", b"GET /api/health HTTP/1.1\r\n\r\n"
        if choice == 1:
            return "foreign host", b"GET /api/health HTTP/1.1\r\nHost: rebind.example\r\n\r\n"
        if choice == 2:
            return "cl+te", ("POST /api/search HTTP/1.1\r\n%sContent-Type: application/json\r\nContent-Length: 5\r\n"
                             "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" % host).encode()
        if choice == 3:
            return "huge cl", ("POST /api/documents HTTP/1.1\r\n%sContent-Type: application/json\r\n"
                               "Content-Length: 999999999\r\n\r\n{" % host).encode()
        if choice == 4:
            return "bad cl", ("POST /api/search HTTP/1.1\r\n%sContent-Length: -5\r\n\r\n" % host).encode()
        if choice == 5:
            return "long line", ("GET /api/documents?q=%s HTTP/1.1\r\n%s\r\n" % ("q" * 9000, host)).encode()
        if choice == 6:
            return "big header", ("GET /api/health HTTP/1.1\r\n%sX-Big: %s\r\n\r\n" % (host, "b" * 20000)).encode()
        if choice == 7:
            return "no colon", ("GET /api/health HTTP/1.1\r\n%sNoColon\r\n\r\n" % host).encode()
        if choice == 8:
            return "http10", b"GET /api/health HTTP/1.0\r\nHost: localhost\r\n\r\n"
        return "garbage", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\r\n\r\n"
    if kind < 94:
        path = rng.choice(["/api/documents?%s" % rand_text(rng, 10).replace(" ", "%20"),
                           "/api/documents?namespace=%s" % rng.choice(["fuzz", "default", "Bad", "%E9", "a%2Fb"]),
                           "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fconf/argus.json", "/webroot/../conf/argus.json",
                           "/api/documents/..%2F..", "/api//documents", "/API/HEALTH", "/api/health/"])
        return "target", ("GET %s HTTP/1.1\r\n%s\r\n" % (path, host)).encode()
    # chunked bodies, sometimes never terminated
    body = json_body(rng, "/api/search").encode("utf-8", "surrogatepass")
    chunked = (b"%x\r\n%s\r\n" % (len(body), body) if body else b"") + (b"0\r\n\r\n" if rng.random() < 0.6 else b"")
    return "chunked", ("POST /api/search HTTP/1.1\r\n%sContent-Type: application/json\r\n"
                       "Transfer-Encoding: chunked\r\n\r\n" % host).encode() + chunked


def exchange(port, data, hang_seconds):
    """Sends data; returns (status or None, headers, body, hung)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=hang_seconds)
    try:
        try:
            s.sendall(data)
        except OSError:
            pass  # the server may close early (413, refusals): read what it answered
        buf = b""
        deadline = time.time() + hang_seconds
        while True:
            if time.time() > deadline:
                return parse(buf) + (True,)
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return parse(buf) + (True,)
            except OSError:
                return parse(buf) + (False,)
            if not chunk:
                return parse(buf) + (False,)
            buf += chunk
            status, headers, body = parse(buf)
            if status is not None and complete(buf, headers, data):
                return status, headers, body, False
    finally:
        s.close()


def parse(buf):
    head, sep, body = buf.partition(b"\r\n\r\n")
    if not sep:
        return None, {}, b""
    lines = head.decode("latin1").split("\r\n")
    try:
        status = int(lines[0].split(" ")[1])
    except (IndexError, ValueError):
        return None, {}, b""
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    if "content-length" in headers:
        body = body[:int(headers["content-length"])]  # what follows is another response (pipelined input)
    return status, headers, body


def complete(buf, headers, request):
    body = buf.partition(b"\r\n\r\n")[2]
    if request.startswith(b"HEAD "):
        return True
    if "content-length" in headers:
        return len(body) >= int(headers["content-length"])
    if headers.get("transfer-encoding", "").lower() == "chunked":
        return body.endswith(b"0\r\n\r\n")
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--hang-seconds", type=float, default=60)
    args = ap.parse_args()
    target = Target(args.port)
    statuses = Counter()
    by_request = {}
    labels5xx = Counter()
    problems = {"5xx": [], "hangs": [], "shape": [], "leaks": []}
    counts = Counter()
    lock = threading.Lock()
    next_index = [0]

    def worker(tid):
        rng = random.Random(args.seed * 1000 + tid)
        while True:
            with lock:
                if next_index[0] >= args.requests:
                    return
                next_index[0] += 1
            label, data = build(rng, target)
            try:
                status, headers, body, hung = exchange(args.port, data, args.hang_seconds)
            except OSError as e:
                status, headers, body, hung = None, {}, b"", False
                with lock:
                    counts["connect errors"] += 1
            text = body.decode("utf-8", "replace")
            with lock:
                counts["requests"] += 1
                statuses[str(status)] += 1
                by_request.setdefault(label.split(" ")[0], Counter())[str(status)] += 1
                if hung:
                    counts["hangs"] += 1
                    if len(problems["hangs"]) < 10:
                        problems["hangs"].append({"request": label, "sent": data[:200].decode("latin1")})
                if status is not None and status >= 500:
                    counts["5xx"] += 1
                    labels5xx[label] += 1
                    if len(problems["5xx"]) < 10:
                        problems["5xx"].append({"request": label, "status": status, "body": text[:300],
                                                "sent": data[:300].decode("latin1")})
                if status is not None and status >= 400 and not data.startswith(b"HEAD "):
                    try:
                        j = json.loads(text)
                        err = j.get("error")
                        ok = (isinstance(err, str) and isinstance(j.get("code"), str)) or \
                             (isinstance(err, dict) and isinstance(err.get("code"), str))
                    except ValueError:
                        ok = False
                    if not ok:
                        counts["not the JSON error shape"] += 1
                        if len(problems["shape"]) < 10:
                            problems["shape"].append({"request": label, "status": status, "body": text[:200]})
                if "Exception" in text and "\tat " in text or "at io.vertx" in text or "at dev.argus" in text:
                    counts["stack traces"] += 1
                    problems["leaks"].append({"request": label, "body": text[:300]})
            if status in (200, 201, 202) and label.startswith("post "):
                if "/api/documents" in label:
                    try:
                        jid = json.loads(text).get("jobId")
                        if jid:
                            with target.lock:
                                target.job_ids.append(jid)
                    except ValueError:
                        pass
                run = headers.get("x-run-id")
                if run:
                    with target.lock:
                        target.run_ids.append(run)

    started = time.time()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"requests": counts["requests"], "seconds": round(time.time() - started, 1),
                      "5xx": counts["5xx"], "hangs": counts["hangs"], "connectErrors": counts["connect errors"],
                      "notJsonErrorShape": counts["not the JSON error shape"], "stackTraces": counts["stack traces"],
                      "statuses": dict(sorted(statuses.items())), "5xxByRequest": dict(labels5xx),
                      "statusesByKind": {k: dict(sorted(v.items())) for k, v in sorted(by_request.items())},
                      "samples": problems}, indent=1))


if __name__ == "__main__":
    main()
