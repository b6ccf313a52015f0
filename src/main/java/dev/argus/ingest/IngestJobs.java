package dev.argus.ingest;

import dev.argus.common.ApiException;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The jobs of one process, in memory and bounded: at most {@code maxJobs} are kept; finished jobs expire after
 * {@code ttl}, and the oldest finished job makes room for a new one. When every slot holds an unfinished job a
 * new one is refused (503). Used only from the owning verticle's context.
 */
public final class IngestJobs {

  private final int maxJobs;
  private final Duration ttl;
  private final Map<String, IngestJob> jobs = new LinkedHashMap<>();

  public IngestJobs(int maxJobs, Duration ttl) {
    this.maxJobs = maxJobs;
    this.ttl = ttl;
  }

  public IngestJob create(int total) {
    expire();
    if (jobs.size() >= maxJobs) {
      Iterator<IngestJob> it = jobs.values().iterator();
      while (it.hasNext() && jobs.size() >= maxJobs) {
        if (it.next().status().finished()) {
          it.remove();
        }
      }
    }
    if (jobs.size() >= maxJobs) {
      throw ApiException.unavailable("too_many_jobs", "too many ingestion jobs are running (" + maxJobs
          + "); try again later");
    }
    IngestJob job = new IngestJob(total);
    jobs.put(job.id(), job);
    return job;
  }

  /** Takes in a job resumed after a restart (at start, before any new job: no capacity check). */
  void adopt(IngestJob job) {
    jobs.put(job.id(), job);
  }

  public Optional<IngestJob> get(String id) {
    expire();
    return Optional.ofNullable(jobs.get(id));
  }

  /** Forgets a job (one that could not be recorded, and never ran). */
  public void remove(String id) {
    jobs.remove(id);
  }

  public int size() {
    return jobs.size();
  }

  /** The jobs that have not finished yet. */
  public Iterable<IngestJob> unfinished() {
    return jobs.values().stream().filter(j -> !j.status().finished()).toList();
  }

  private void expire() {
    Instant cutoff = Instant.now().minus(ttl);
    jobs.values().removeIf(j -> j.finishedAt() != null && j.finishedAt().isBefore(cutoff));
  }
}
