"use strict";
// Everything from documents and from the model is written with textContent: nothing is ever parsed as HTML.
const PHASES = ["think", "plan", "act", "observe", "reflect"];
const MARKER = /\[cite:([^\]\s]+):(\d+)\]/g;
// one conversation per page: follow-up questions are rewritten from its earlier turns
const SESSION = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).replace(/[^A-Za-z0-9-]/g, "");
/** A stream that ends before the run's final event is resumed from the run's event log this many times. */
const RESUME_ATTEMPTS = 4;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/** Renders answer text, turning [cite:doc:i] markers into numbered links (text nodes only). */
function renderAnswer(target, text, numbers) {
  target.replaceChildren();
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    target.appendChild(document.createTextNode(text.slice(last, m.index)));
    const key = m[1] + ":" + m[2];
    if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
    const a = el("a", "cite", "[" + numbers.get(key) + "]");
    a.href = "#";
    a.title = m[1] + " chunk " + m[2];
    a.addEventListener("click", ev => { ev.preventDefault(); openChunk(m[1], Number(m[2])); });
    target.appendChild(a);
    last = m.index + m[0].length;
  }
  target.appendChild(document.createTextNode(text.slice(last)));
}

async function openChunk(documentId, index) {
  const viewer = document.getElementById("viewer");
  viewer.replaceChildren(el("h2", null, "Loading " + documentId + "..."));
  try {
    const resp = await window.Argus.fetch("/api/documents/" + encodeURIComponent(documentId));
    const doc = await resp.json();
    if (!resp.ok) throw new Error(doc.error || resp.status);
    viewer.replaceChildren(el("h2", null, doc.title || documentId), el("div", "log", documentId + " - chunk " + index));
    let hit = null;
    for (const c of doc.chunks || []) {
      const div = el("div", "chunk" + (c.index === index ? " hit" : ""), c.text);
      if (c.index === index) hit = div;
      viewer.appendChild(div);
    }
    if (hit) hit.scrollIntoView({ block: "center" });
  } catch (e) {
    viewer.replaceChildren(el("h2", null, "Source"), el("div", "log", "Could not open " + documentId + ": " + e.message));
  }
}

function newTurn(question) {
  const thread = document.getElementById("thread");
  const asked = el("div", "msg user", question);
  thread.appendChild(asked);
  const box = el("div", "msg");
  const timeline = el("div", "timeline");
  const steps = {};
  for (const p of PHASES) { steps[p] = el("span", "step", p); timeline.appendChild(steps[p]); }
  const logs = el("div");
  const draft = el("div", "draft");
  const answer = el("div", "answer");
  const meta = el("div", "meta");
  const sources = el("ol", "sources");
  box.append(timeline, logs, draft, answer, meta, sources);
  thread.appendChild(box);
  box.scrollIntoView({ block: "end" });
  return { asked, box, steps, logs, draft, answer, meta, sources, text: "", draftText: "", numbers: new Map(),
    flagged: new Set(), runId: null, lastId: 0, finished: false };
}

/** Shows the finished turn from its question down, so a new answer is in sight however long the thread. */
function reveal(turn) {
  turn.asked.scrollIntoView({ block: "start" });
}

function handle(turn, type, data) {
  switch (type) {
    case "phase": {
      const s = turn.steps[data.name];
      if (!s) break;
      s.className = "step " + (data.status === "start" ? "running" : "done");
      s.textContent = data.name + (data.status === "end" && data.durationMs !== undefined ? " " + data.durationMs + " ms" : "");
      break;
    }
    case "agent_log": turn.logs.appendChild(el("div", "log", (data.phase ? data.phase + ": " : "") + data.message)); break;
    case "tool_call": turn.logs.appendChild(el("div", "log", "tool " + data.tool + " " + JSON.stringify(data.params))); break;
    case "tool_result": turn.logs.appendChild(el("div", "log", "  -> " + data.tool + (data.success ? " ok" : " failed: " + data.error)
        + " (" + data.durationMs + " ms)" + (data.summary && data.summary.hits !== undefined ? ", " + data.summary.hits + " hits" : ""))); break;
    case "rewrite": turn.logs.appendChild(el("div", "log", "understood as: " + data.standalone)); break;
    case "source_flagged":
      turn.flagged.add(data.documentId + ":" + data.chunkIndex);
      turn.logs.appendChild(el("div", "flagged", "flagged source " + (data.title || data.documentId)
        + (data.reason === "markup" ? ": carries markup" : ": tries to instruct the assistant") + " (treated as data)"));
      break;
    // drafts may be withdrawn (reset); only tokens are the answer
    case "draft": turn.draftText += data.text || ""; turn.draft.textContent = turn.draftText; break;
    case "reset": turn.draftText = ""; turn.draft.textContent = ""; break;
    case "token": turn.text += data.text || ""; renderAnswer(turn.answer, turn.text, turn.numbers); break;
    case "queued": turn.logs.appendChild(el("div", "log", "waiting for a free slot (place " + data.position + " in the queue)")); break;
    case "run": turn.runId = data.runId || turn.runId; break;
    case "final": {
      turn.finished = true;
      turn.text = data.answer || "";
      turn.draft.textContent = "";
      turn.numbers = new Map(); // numbered in the order of the final answer: no gaps
      renderAnswer(turn.answer, turn.text, turn.numbers);
      const noAnswer = data.kind === "no_answer";
      turn.meta.replaceChildren(
        el("span", "badge " + (data.verified ? "ok" : "no"), noAnswer ? "not in the knowledge base"
          : data.verified ? "verified" : "not verified"),
        el("span", null, "confidence " + Math.round((data.confidence || 0) * 100) + "%"),
        el("span", null, data.timings && data.timings.totalMs !== undefined ? data.timings.totalMs + " ms" : ""),
        el("span", null, data.cached ? "from cache" : ""));
      turn.sources.replaceChildren();
      for (const c of data.citations || []) {
        const key = c.documentId + ":" + c.chunkIndex;
        if (!turn.numbers.has(key)) turn.numbers.set(key, turn.numbers.size + 1);
        const li = el("li");
        li.value = turn.numbers.get(key);
        const a = el("a", null, c.title || c.documentId);
        a.addEventListener("click", () => openChunk(c.documentId, c.chunkIndex));
        li.append(a, el("span", "log", " - " + (c.snippet || "")));
        if (c.flagged || turn.flagged.has(key)) li.appendChild(el("span", "flagged", " (flagged source)"));
        turn.sources.appendChild(li);
      }
      for (const s of data.suggestions || []) {
        const li = el("li", "log");
        const a = el("a", null, "related: " + (s.title || s.documentId));
        a.addEventListener("click", () => openChunk(s.documentId, 0));
        li.appendChild(a);
        turn.sources.appendChild(li);
      }
      reveal(turn);
      break;
    }
    case "error":
      turn.finished = true;
      turn.meta.replaceChildren(el("span", "badge err", "error"), el("span", null, data.error || "the run failed"));
      reveal(turn);
      break;
  }
}

/** Reads an SSE response frame by frame into the turn, remembering the last event id; returns when it ends or drops. */
async function readEvents(resp, turn) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let end;
      while ((end = buf.indexOf("\n\n")) >= 0) {
        const frame = buf.slice(0, end);
        buf = buf.slice(end + 2);
        let type = "message", data = "", id = null;
        for (const line of frame.split("\n")) {
          if (line.startsWith("event:")) type = line.slice(6).trim();
          else if (line.startsWith("data:")) data += (data ? "\n" : "") + line.slice(line.startsWith("data: ") ? 6 : 5);
          else if (line.startsWith("id:")) id = Number(line.slice(3).trim());
        }
        if (id !== null && Number.isFinite(id)) {
          if (id <= turn.lastId) continue; // already shown (a resumed stream starts after lastId; be safe anyway)
          turn.lastId = id;
        }
        if (!data) continue;
        try { handle(turn, type, JSON.parse(data)); } catch (e) { /* ignore a malformed frame */ }
      }
    }
  } catch (e) {
    /* the connection dropped: the caller resumes from the run's event log */
  }
}

/** The run's stream ended before its final event: fetch the rest from GET /api/runs/{id}/events after the last id. */
async function resume(turn) {
  for (let attempt = 1; attempt <= RESUME_ATTEMPTS && !turn.finished && turn.runId; attempt++) {
    await new Promise(r => setTimeout(r, 250 * attempt));
    try {
      const resp = await window.Argus.fetch("/api/runs/" + encodeURIComponent(turn.runId) + "/events?lastEventId=" + turn.lastId,
        { headers: { Accept: "text/event-stream" } });
      if (resp.ok) await readEvents(resp, turn);
      else if (resp.status === 404) break;
    } catch (e) { /* try again */ }
  }
  if (!turn.finished) {
    handle(turn, "error", { error: "the answer stream was lost" + (turn.runId ? " (run " + turn.runId + ")" : "") });
  }
}

/** POSTs the question and reads the SSE stream frame by frame (EventSource cannot POST). */
async function ask(question) {
  const turn = newTurn(question);
  const body = { question, sessionId: SESSION };
  const ns = document.getElementById("namespace").value.trim();
  const profile = document.getElementById("profile").value.trim();
  if (ns) body.namespace = ns;
  if (profile) body.profile = profile;
  let resp;
  try {
    resp = await window.Argus.fetch("/api/chat", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (e) {
    handle(turn, "error", { error: "could not reach Argus: " + e.message });
    return;
  }
  if (!resp.ok) {
    let msg = resp.status + "";
    try { msg = (await resp.json()).error || msg; } catch (e) { /* not JSON */ }
    handle(turn, "error", { error: msg });
    return;
  }
  turn.runId = resp.headers.get("X-Run-Id");
  await readEvents(resp, turn);
  if (!turn.finished) await resume(turn);
}

document.getElementById("ask").addEventListener("submit", async ev => {
  ev.preventDefault();
  const q = document.getElementById("question");
  const send = document.getElementById("send");
  const question = q.value.trim();
  if (!question) return;
  send.disabled = true;
  q.value = "";
  try { await ask(question); } finally { send.disabled = false; q.focus(); }
});
document.getElementById("question").addEventListener("keydown", ev => {
  if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); document.getElementById("ask").requestSubmit(); }
});
