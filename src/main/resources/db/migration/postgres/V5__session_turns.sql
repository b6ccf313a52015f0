-- Chat conversations: the recent turns of each session (question, its standalone rewrite, the answer),
-- read to rewrite follow-up questions; trimmed to the newest turns per session and purged after the session TTL.
CREATE TABLE session_turns (
  session_id TEXT NOT NULL,
  run_id     TEXT NOT NULL,
  question   TEXT NOT NULL,
  standalone TEXT NOT NULL,
  answer     TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (session_id, run_id)
);
CREATE INDEX session_turns_recent_idx ON session_turns (session_id, created_at);
CREATE INDEX session_turns_created_idx ON session_turns (created_at);
