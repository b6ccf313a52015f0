#!/usr/bin/env python3
"""Fires malformed and well-formed event-bus bridge frames at a running Argus and reports what it got back.

Used by scripts/fuzz (which starts and stops Argus); standard library only. Three ways in, one rule for all:
  * the TCP bridge (--tcp-port): frames of a 4-byte big-endian length and a JSON envelope, plus bad framing (a length
    that lies, zero, negative, far beyond bridge.maxMessageBytes, bytes that are not UTF-8);
  * the SockJS bridge's raw WebSocket (/eventbus/websocket): the same envelopes as text frames, plus binary frames;
  * the SockJS HTTP transports (/eventbus/<server>/<session>/xhr, xhr_send, info, ...): bad payloads as HTTP bodies.
Envelopes: every permitted address with a reply address and a body made wrong (fields of the wrong type, missing,
not an object), forbidden and unknown addresses, publish, register and unregister (permitted, forbidden, bad run ids),
unknown types, bad headers, oversize, not JSON. After every frame a probe (a send to an address that is never
bridged, with a reply address) must be answered with its 403 reply: a connection that stops answering "hangs".

Counted: frames sent; replies; "5xx" = a reply failure with failureCode >= 500 or < 0 (a reply timeout or no
handler) or an HTTP status >= 500; hangs; reply failures whose message is not the API's {"error", "code"} JSON; HTTP
error responses not in that shape; stack traces in anything received. Prints one JSON object.
"""
import argparse
import base64
import json
import os
import random
import socket
import struct
import threading
import time
import uuid
from collections import Counter

from fuzz_values import rand_text, rand_value

IN_ADDRESSES = ["argus.decide.onboarding", "argus.decide.transaction", "argus.decisions.get", "argus.decisions.list",
                "argus.retrieve.search", "argus.agent.run.start"]
OUT_ADDRESSES = ["argus.decisions.created", "argus.reviews.completed", "argus.run.r-1", "argus.run.abc_DEF-9"]
FORBIDDEN = ["argus.knowledge.document.delete", "argus.decide.assess.identity", "argus.records.ingest",
             "argus.agent.run.get", "argus.runs.purge", "argus.llm.status", "argus.feedback.label", "", " ",
             "argus.decide.onboarding.x", "ARGUS.RETRIEVE.SEARCH", "argus.run.", "argus.run." + "x" * 65,
             "argus.run.a/b", "argus.run.a%00b", "argus.retrieve.search\u0000", "a" * 300, "\u00e9\u4e2d",
             "__vertx.reply.1", "argus.decisions.created"]
NUL = "\u0000"
# what the bridge libraries write after a refused frame (ours, with the reply, comes first): not an answer in itself
AFTER_REFUSAL = {"access_denied", "rejected", "blocked by bridgeEvent handler"}


def good_body(rng, address):
    seller = {"id": "S-FZ-%d" % rng.randrange(20), "createdAt": "2023-01-01T00:00:00Z", "legalName": "Fuzz Shop",
              "country": rng.choice(["NL", "DE", "US"])}
    return {
        "argus.decide.onboarding": {"asOf": "2025-06-01T00:00:00Z", "seller": seller},
        "argus.decide.transaction": {"asOf": "2025-06-01T00:00:00Z", "transaction": {
            "id": "T-FZ-%d" % rng.randrange(20), "sellerId": seller["id"], "amount": 12.5, "currency": "EUR",
            "at": "2025-05-30T10:00:00Z"}},
        "argus.decisions.get": {"id": rng.choice(["d-1", str(uuid.uuid4()), "x" * 300])},
        "argus.decisions.list": {"limit": rng.choice([1, 10, 100])},
        "argus.retrieve.search": {"query": "refund abuse %d" % rng.randrange(1000), "topK": 5},
        "argus.agent.run.start": {"question": "How long do refunds take? (fuzz %d)" % rng.randrange(10 ** 6)},
    }[address]


def mutate(rng, body):
    """A body with one field (possibly nested) replaced, removed or added with a value of a random type."""
    body = json.loads(json.dumps(body))
    target = body
    if rng.random() < 0.4:
        nested = [k for k, v in body.items() if isinstance(v, dict)]
        if nested:
            target = body[rng.choice(nested)]
    keys = list(target.keys()) + ["runId", "namespace", "filters", "profile", "sessionId", "history", "stripMarkup",
                                  "allowedNamespaces", "retrievers", "subject", "outcome", "from", "to", "before"]
    key = rng.choice(keys)
    if rng.random() < 0.2 and key in target:
        del target[key]
    else:
        target[key] = rand_value(rng, NUL)
    return body


class Case:
    def __init__(self, label, frame=None, raw=None, reply=None):
        self.label = label      # kind of case, for the per-kind counts
        self.frame = frame      # a JSON envelope (dict) or None
        self.raw = raw          # bytes sent as they are instead of an envelope (a text frame's payload on SockJS)
        self.reply = reply      # the reply address a reply is awaited on, or None


def envelope_case(rng, headers_of):
    kind = rng.randrange(100)
    reply = "fz-" + uuid.uuid4().hex[:12]
    if kind < 45:
        address = rng.choice(IN_ADDRESSES)
        if address == "argus.agent.run.start" and rng.random() < 0.7:
            address = "argus.retrieve.search"  # a chat run costs most: fewer of them
        body = good_body(rng, address)
        mode = rng.randrange(10)
        if mode < 6:
            body = mutate(rng, body)
        elif mode == 6:
            body = rand_value(rng, NUL)
        elif mode == 7:
            body = rng.choice([None, "text", 42, [1, 2], True, {}])
        frame = {"type": "send", "address": address, "replyAddress": reply, "body": body}
        if mode == 8 and rng.random() < 0.5:
            del frame["body"]
        frame["headers"] = headers_of(rng)
        return Case("send " + address, frame, reply=reply)
    if kind < 55:
        frame = {"type": "send", "address": rng.choice(FORBIDDEN), "replyAddress": reply, "body": rand_value(rng, NUL),
                 "headers": headers_of(rng)}
        return Case("send forbidden", frame, reply=reply)
    if kind < 60:
        frame = {"type": "publish", "address": rng.choice(IN_ADDRESSES + OUT_ADDRESSES), "body": rand_value(rng, NUL),
                 "headers": headers_of(rng)}
        return Case("publish", frame)
    if kind < 72:
        address = rng.choice(OUT_ADDRESSES + FORBIDDEN + IN_ADDRESSES)
        frame = {"type": rng.choice(["register", "register", "unregister"]), "address": address,
                 "headers": headers_of(rng)}
        return Case(frame["type"], frame)
    if kind < 80:
        frame = {"type": rng.choice(["SEND", "rec", "err", "pong", "ping", "", None, 7, ["send"], "send\u0000"]),
                 "address": rng.choice(IN_ADDRESSES), "body": {}}
        if rng.random() < 0.3:
            del frame["type"]
        return Case("bad type", frame)  # refused without a reply: the probe after it shows the connection lives
    if kind < 88:
        frame = {"type": "send", "address": rng.choice(IN_ADDRESSES), "replyAddress": reply,
                 "body": good_body(rng, "argus.retrieve.search")}
        field = rng.choice(["address", "replyAddress", "headers", "body"])
        frame[field] = rand_value(rng, NUL)
        if field == "headers" and rng.random() < 0.5:
            frame[field] = {"authorization": rand_value(rng, NUL)}
        replied = reply if field not in ("replyAddress",) and isinstance(frame.get("address"), str) else None
        return Case("bad field " + field, frame, reply=None if replied is None else reply)
    if kind < 92:
        frame = {"type": "send", "address": "argus.retrieve.search", "replyAddress": reply,
                 "body": {"query": "q" * rng.choice([300 * 1024, 600 * 1024]), "topK": 5}}
        return Case("oversize", frame, reply=reply)
    choice = rng.randrange(8)
    raws = [b"", b"not json", b"{", b"[1,2,3]", b'"a string"', b"null", b"[" * 5000,
            json.dumps({"type": "send", "address": "argus.retrieve.search", "body": {"query": "x" + NUL}}).encode()]
    return Case("not json", raw=raws[choice])


def headers_factory(key):
    def headers_of(rng):
        mode = rng.randrange(10)
        if mode < 6:
            return {"authorization": "Bearer " + key} if key else {}
        if mode == 6:
            return {"authorization": "Bearer wrong-" + rand_text(rng, 8)}
        if mode == 7:
            return {"Authorization": rand_value(rng, NUL)}
        if mode == 8:
            return rand_value(rng, NUL)
        return {"authorization": "Basic " + base64.b64encode(b"a:b").decode()}
    return headers_of


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = Counter()
        self.by_kind = {}
        self.samples = {"5xx": [], "hangs": [], "shape": [], "leaks": []}

    def note(self, transport, case, outcome):
        with self.lock:
            self.by_kind.setdefault(transport + " " + case.label.split(" ")[0], Counter())[outcome] += 1

    def problem(self, kind, transport, case, detail):
        with self.lock:
            self.counts[kind] += 1
            if len(self.samples[kind]) < 10:
                sent = json.dumps(case.frame)[:300] if case.frame is not None else repr(case.raw[:120])
                self.samples[kind].append({"transport": transport, "case": case.label, "sent": sent,
                                           "got": str(detail)[:400]})


def check_reply(stats, transport, case, frame):
    """A frame addressed to a case's reply address: a reply or a failure in the API's error shape."""
    text = json.dumps(frame)
    if "\tat " in text or "at io.vertx" in text or "at dev.argus" in text:
        stats.problem("leaks", transport, case, text)
    if frame.get("type") != "err":
        return "reply"
    code = frame.get("failureCode")
    if not isinstance(code, int) or code >= 500 or code < 0:
        stats.problem("5xx", transport, case, frame)
        return "failure %s" % code
    try:
        message = json.loads(frame.get("message") or "")
        ok = isinstance(message, dict) and isinstance(message.get("error"), str) \
            and isinstance(message.get("code"), str)
    except ValueError:
        ok = False
    if not ok:
        stats.problem("shape", transport, case, frame)
    return "failure %s" % code


class Conn:
    """One bridge connection (TCP or WebSocket): send an envelope or raw bytes, read the next JSON frame."""

    def __init__(self, transport, port, timeout):
        self.transport = transport
        self.timeout = timeout
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""
        if transport == "ws":
            key = base64.b64encode(os.urandom(16)).decode()
            self.sock.sendall(("GET /eventbus/websocket HTTP/1.1\r\nHost: localhost:%d\r\nUpgrade: websocket\r\n"
                               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                               % (port, key)).encode())
            while b"\r\n\r\n" not in self.buf:
                chunk = self.sock.recv(4096)
                if not chunk:
                    raise OSError("closed during the WebSocket handshake")
                self.buf += chunk
            head, _, self.buf = self.buf.partition(b"\r\n\r\n")
            if b" 101 " not in head.split(b"\r\n")[0]:
                raise OSError("WebSocket handshake refused: " + head.split(b"\r\n")[0].decode("latin1"))

    def send(self, payload, opcode=1):
        if self.transport == "tcp":
            self.sock.sendall(struct.pack(">I", len(payload)) + payload)
            return
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n < 4096 else \
            (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
        self.sock.sendall(head + mask + masked)

    def send_raw(self, data):
        self.sock.sendall(data)

    def _need(self, n, deadline):
        while len(self.buf) < n:
            left = deadline - time.time()
            if left <= 0:
                raise socket.timeout()
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError()
            self.buf += chunk

    def _take(self, n):
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read(self, seconds):
        """The next JSON frame; socket.timeout when none in time; EOFError when the server closed."""
        deadline = time.time() + seconds
        message = b""
        while True:
            if self.transport == "tcp":
                self._need(4, deadline)
                n = struct.unpack(">I", self.buf[:4])[0]
                self._need(4 + n, deadline)
                self._take(4)
                return json.loads(self._take(n).decode("utf-8"))
            self._need(2, deadline)
            b0, b1 = self.buf[0], self.buf[1]
            n, off = b1 & 0x7F, 2
            if n == 126:
                self._need(4, deadline)
                n, off = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                self._need(10, deadline)
                n, off = struct.unpack(">Q", self.buf[2:10])[0], 10
            self._need(off + n, deadline)
            self._take(off)
            payload = self._take(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise EOFError()
            if opcode in (0, 1, 2):
                message += payload  # a long message arrives in fragments (continuation frames)
                if b0 & 0x80:
                    return json.loads(message.decode("utf-8"))

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def probe(conn, n, seconds):
    """Sends a request the bridge must refuse with a 403 reply; True when that reply came."""
    address = "probe-%d" % n
    conn.send(json.dumps({"type": "send", "address": "argus.fuzz.probe", "replyAddress": address,
                          "body": {}}).encode())
    deadline = time.time() + seconds
    while time.time() < deadline:
        f = conn.read(deadline - time.time())
        if f.get("address") == address:
            return f.get("failureCode") == 403
    return False


def run_frame_case(stats, conn, transport, case, rng, args, n):
    """Sends one case on conn; returns False when the connection must be replaced."""
    try:
        if case.raw is not None:
            conn.send(case.raw, opcode=2 if transport == "ws" and rng.random() < 0.3 else 1)
        else:
            conn.send(json.dumps(case.frame).encode("utf-8", "surrogatepass"))
        outcome = "no reply"
        if case.reply:
            deadline = time.time() + args.reply_seconds
            while time.time() < deadline:
                f = conn.read(deadline - time.time())
                if isinstance(f, dict) and f.get("address") == case.reply:
                    outcome = check_reply(stats, transport, case, f)
                    break
                if isinstance(f, dict) and f.get("type") == "err" and "address" not in f:
                    said = str(f.get("body", f.get("message")))
                    if said not in AFTER_REFUSAL:
                        outcome = "err " + said  # refused by the bridge's protocol checks: no reply follows
                        break
            else:
                stats.problem("hangs", transport, case, "no reply within %s s" % args.reply_seconds)
                outcome = "hang"
        if probe(conn, n, args.reply_seconds):
            stats.note(transport, case, outcome)
            return True
        stats.problem("hangs", transport, case, "the probe after it was not answered")
        stats.note(transport, case, "hang")
        return False
    except (EOFError, ConnectionError, BrokenPipeError):
        stats.note(transport, case, "closed")  # the server may close a connection that broke the protocol
        return False
    except ValueError as e:
        stats.problem("shape", transport, case, "a frame that is not JSON: %s" % e)
        stats.note(transport, case, "unparseable frame")
        return False
    except socket.timeout:
        stats.problem("hangs", transport, case, "timed out")
        stats.note(transport, case, "hang")
        return False


def tcp_framing_case(rng, port, stats, args):
    """Bad framing on a fresh TCP connection; the server must answer or close, never hang or die."""
    choice = rng.randrange(6)
    label = ["length too long", "length negative", "length huge", "length zero", "not utf-8", "length short"][choice]
    case = Case("framing " + label, raw=b"")
    body = json.dumps({"type": "send", "address": "argus.fuzz.probe", "replyAddress": "r", "body": {}}).encode()
    if choice == 0:
        data = struct.pack(">I", len(body) + 100) + body
    elif choice == 1:
        data = struct.pack(">I", 0xFFFFFFF0) + body
    elif choice == 2:
        data = struct.pack(">I", 0x7FFFFFF0) + b"{" * rng.choice([1000, 200000])
    elif choice == 3:
        data = struct.pack(">I", 0) + struct.pack(">I", len(body)) + body
    elif choice == 4:
        bad = b'{"type":"send","address":"\xff\xfe","body":{}}'
        data = struct.pack(">I", len(bad)) + bad
    else:
        data = struct.pack(">I", 5) + body
    conn = Conn("tcp", port, args.reply_seconds)
    try:
        conn.send_raw(data)
        try:
            if choice == 3:
                f = conn.read(args.reply_seconds)  # the empty frame's refusal, then the probe's reply
                outcome = "err " + str(f.get("body"))
            else:
                outcome = "answered" if conn.read(2.0) else "answered"
        except socket.timeout:
            outcome = "no answer"  # a frame that is still incomplete: fine, as long as the connection is closed
        except (EOFError, ConnectionError):
            outcome = "closed"
        except ValueError:
            outcome = "answered"
        stats.note("tcp", case, outcome)
    finally:
        conn.close()


def http_exchange(port, data, seconds):
    s = socket.create_connection(("127.0.0.1", port), timeout=seconds)
    try:
        s.sendall(data)
        buf = b""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            buf += chunk
            head, sep, body = buf.partition(b"\r\n\r\n")
            if sep:
                headers = {k.strip().lower(): v.strip() for k, _, v in
                           (line.partition(":") for line in head.decode("latin1").split("\r\n")[1:])}
                if "content-length" in headers and len(body) >= int(headers["content-length"]):
                    break
                if headers.get("transfer-encoding") == "chunked" and body.endswith(b"0\r\n\r\n"):
                    break
                if head.startswith(b"HTTP/1.1 204") or head.startswith(b"HTTP/1.1 304"):
                    break
        head, _, body = buf.partition(b"\r\n\r\n")
        try:
            status = int(head.split(b" ")[1])
        except (IndexError, ValueError):
            status = None
        return status, body
    finally:
        s.close()


def sockjs_http_case(rng, port, stats, args):
    """One request to the SockJS HTTP transports with a bad (or good) payload."""
    server, session = str(rng.randrange(1000)), uuid.uuid4().hex[:8]
    host = "Host: localhost:%d\r\n" % port
    opened = False
    if rng.random() < 0.7:
        st, _ = http_exchange(port, ("POST /eventbus/%s/%s/xhr HTTP/1.1\r\n%sContent-Length: 0\r\n\r\n"
                                     % (server, session, host)).encode(), args.reply_seconds)
        opened = st == 200
    frame = json.dumps({"type": "send", "address": "argus.retrieve.search", "replyAddress": "x",
                        "body": {"query": "refund", "topK": 3}})
    payloads = [b"", b"not json", b"{}", b"[1,2]", json.dumps([frame]).encode(), b'["{bad"]', b"[" * 3000,
                json.dumps(["x" * (300 * 1024)]).encode(), b'["\xff"]', b"null"]
    body = rng.choice(payloads)
    path = rng.choice(["/eventbus/%s/%s/xhr_send" % (server, session)] * 6 + [
        "/eventbus/%s/%s/jsonp_send" % (server, session), "/eventbus/%s/%s/xhr" % (server, session),
        "/eventbus/info", "/eventbus/websocket", "/eventbus/%s/%s/websocket" % (server, session),
        "/eventbus/iframe.html", "/eventbus/%s/%s/eventsource" % (server, session), "/eventbus/nope",
        "/eventbus/a.b/c.d/xhr_send", "/eventbus//"])
    method = "POST" if rng.random() < 0.8 else rng.choice(["GET", "PUT", "DELETE", "OPTIONS"])
    ctype = rng.choice(["text/plain", "application/json", "application/x-www-form-urlencoded", ""])
    data = ("%s %s HTTP/1.1\r\n%s%sContent-Length: %d\r\n\r\n" % (
        method, path, host, "Content-Type: %s\r\n" % ctype if ctype else "", len(body))).encode() + body
    seconds = 3.0 if path.endswith("/xhr") or path.endswith("/eventsource") else args.reply_seconds
    case = Case("http " + path.rsplit("/", 1)[-1][:12], raw=data)
    try:
        status, resp = http_exchange(port, data, seconds)
    except OSError as e:
        stats.note("sockjs-http", case, "connect error " + type(e).__name__)
        return
    outcome = str(status) + (" opened" if opened else "")
    stats.note("sockjs-http", case, str(status))
    if status is not None and status >= 500:
        stats.problem("5xx", "sockjs-http", case, "%s %s" % (status, resp[:200]))
    if status is not None and status >= 400 and method != "HEAD":
        try:
            j = json.loads(resp.decode("utf-8", "replace"))
            ok = isinstance(j.get("error"), str) and isinstance(j.get("code"), str)
        except (ValueError, AttributeError):
            ok = False
        if not ok:
            stats.problem("shape", "sockjs-http", case, "%s %s" % (status, resp[:200]))
    text = resp.decode("utf-8", "replace")
    if "\tat " in text or "at io.vertx" in text or "at dev.argus" in text:
        stats.problem("leaks", "sockjs-http", case, text)
    return outcome


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True, help="the HTTP port (SockJS bridge at /eventbus)")
    ap.add_argument("--tcp-port", type=int, default=0, help="the TCP bridge's port (0: skip the TCP bridge)")
    ap.add_argument("--frames", type=int, default=5000)
    ap.add_argument("--threads", type=int, default=6)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--key", default="", help="a key sent in most frames' authorization header")
    ap.add_argument("--reply-seconds", type=float, default=20)
    args = ap.parse_args()
    stats = Stats()
    next_index = [0]
    transports = ["tcp", "ws", "sockjs-http"] if args.tcp_port else ["ws", "sockjs-http"]
    headers_of = headers_factory(args.key)

    def worker(tid):
        rng = random.Random(args.seed * 1000 + tid)
        conns = {}
        while True:
            with stats.lock:
                if next_index[0] >= args.frames:
                    break
                next_index[0] += 1
                n = next_index[0]
            transport = transports[n % len(transports)] if rng.random() < 0.85 else "sockjs-http"
            with stats.lock:
                stats.counts["frames"] += 1
                stats.counts["frames " + transport] += 1
            if transport == "sockjs-http":
                sockjs_http_case(rng, args.port, stats, args)
                continue
            if transport == "tcp" and rng.random() < 0.05:
                tcp_framing_case(rng, args.tcp_port, stats, args)
                continue
            case = envelope_case(rng, headers_of)
            if transport == "ws" and case.label == "oversize" and rng.random() < 0.5:
                case.raw = b"x" * (2 * 1024 * 1024)  # beyond the WebSocket message limit: the server closes
            try:
                conn = conns.get(transport) or Conn(transport, args.tcp_port if transport == "tcp" else args.port,
                                                    args.reply_seconds)
            except OSError as e:
                with stats.lock:
                    stats.counts["connect errors"] += 1
                    stats.samples["hangs"].append({"transport": transport, "case": "connect", "got": str(e)[:200]})
                continue
            conns[transport] = conn
            if not run_frame_case(stats, conn, transport, case, rng, args, n):
                conn.close()
                conns.pop(transport, None)
        for c in conns.values():
            c.close()

    started = time.time()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c = stats.counts
    print(json.dumps({"frames": c["frames"], "byTransport": {t: c["frames " + t] for t in transports},
                      "seconds": round(time.time() - started, 1), "5xx": c["5xx"], "hangs": c["hangs"],
                      "connectErrors": c["connect errors"], "notJsonErrorShape": c["shape"],
                      "stackTraces": c["leaks"],
                      "outcomesByKind": {k: dict(sorted(v.items())) for k, v in sorted(stats.by_kind.items())},
                      "samples": stats.samples}, indent=1))


if __name__ == "__main__":
    main()
