package dev.argus.config;


/**
 * Section {@code agent}: where the profiles live, the default profile, loop bounds, timeouts, tool resilience,
 * the response cache and SSE relay limits, chat sessions (turns kept for {@code sessionTtlMs}, at most
 * {@code sessionMaxTurns} per session, the last {@code historyTurns} read to rewrite a follow-up) and whether markup
 * is stripped from answer text by default. Profile limits may tighten these per agent. {@code maxConcurrentChats} chat
 * streams ({@code POST /api/chat}) run at once, {@code maxQueuedChats} more wait their turn (then 503).
 */
public record AgentConf(String profilesDir, String defaultProfile, int maxRefinements, long phaseTimeoutMs,
                        long toolTimeoutMs, int toolRetries, long toolBackoffMs, int breakerMaxFailures,
                        long breakerResetMs, long cacheTtlMs, int cacheMaxEntries, int maxQuestionChars,
                        long sseHeartbeatMs, int sseMaxBuffered, long liveRunRetentionMs,
                        long resumeMaxAgeMs, long sessionTtlMs, int sessionMaxTurns, int historyTurns,
                        boolean stripMarkup, int maxConcurrentChats, int maxQueuedChats) {

  public static AgentConf from(Settings s) {
    return new AgentConf(
        s.nonBlank("profilesDir", "conf/agents"),
        s.nonBlank("defaultProfile", "assistant"),
        s.intIn("maxRefinements", 2, 0, 10),
        s.longIn("phaseTimeoutMs", 60_000, 100, 600_000),
        s.longIn("toolTimeoutMs", 10_000, 10, 600_000),
        s.intIn("toolRetries", 2, 0, 10),
        s.longIn("toolBackoffMs", 100, 1, 60_000),
        s.intIn("breakerMaxFailures", 5, 1, 1000),
        s.longIn("breakerResetMs", 10_000, 10, 3_600_000),
        s.longIn("cacheTtlMs", 300_000, 0, 86_400_000),
        s.intIn("cacheMaxEntries", 1000, 0, 1_000_000),
        s.intIn("maxQuestionChars", 2000, 1, 100_000),
        s.longIn("sseHeartbeatMs", 15_000, 10, 600_000),
        s.intIn("sseMaxBuffered", 256, 1, 100_000),
        s.longIn("liveRunRetentionMs", 60_000, 0, 86_400_000),
        s.longIn("resumeMaxAgeMs", 3_600_000, 0, 30L * 86_400_000),
        s.longIn("sessionTtlMs", 3_600_000, 1_000, 30L * 86_400_000),
        s.intIn("sessionMaxTurns", 20, 1, 1000),
        s.intIn("historyTurns", 4, 0, 50),
        s.bool("stripMarkup", true),
        s.intIn("maxConcurrentChats", 16, 1, 10_000),
        s.intIn("maxQueuedChats", 1000, 0, 1_000_000));
  }
}
