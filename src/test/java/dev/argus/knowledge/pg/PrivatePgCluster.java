package dev.argus.knowledge.pg;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away PostgreSQL cluster for failure tests: {@code initdb} + {@code pg_ctl} of the locally installed
 * server (newest version under {@code /usr/lib/postgresql}) in a temporary folder on a free port, so a test can
 * stop and restart the server without touching the shared one. As root the tools run as the {@code postgres}
 * OS user. pgvector and pg_trgm live in the server's library folder, so the extensions work here too.
 */
final class PrivatePgCluster implements AutoCloseable {

  private final Path dir;
  private final Path data;
  private final Path bin;
  private final int port;

  private PrivatePgCluster(Path dir, Path bin, int port) {
    this.dir = dir;
    this.data = dir.resolve("data");
    this.bin = bin;
    this.port = port;
  }

  static PrivatePgCluster start() throws IOException, InterruptedException {
    Path bin;
    try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
      bin = versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
          .max(Comparator.comparingInt(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
          .orElseThrow(() -> new IllegalStateException("no PostgreSQL server binaries (initdb) under /usr/lib/postgresql"));
    }
    Path dir = Files.createTempDirectory("argus-pg-");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    PrivatePgCluster cluster = new PrivatePgCluster(dir, bin, port);
    if (isRoot()) {
      cluster.run(List.of("chown", "postgres", dir.toString()), false);
    }
    cluster.run(List.of(bin.resolve("initdb").toString(), "-D", cluster.data.toString(), "-A", "trust", "-U", "postgres",
        "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"), true);
    cluster.startServer();
    return cluster;
  }

  int port() {
    return port;
  }

  void startServer() throws IOException, InterruptedException {
    run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w",
        "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"), true);
  }

  /** Stops the server the way an operator's restart does ({@code -m fast}: open sessions are terminated). */
  void stopServer() throws IOException, InterruptedException {
    run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "-t", "60", "stop"), true);
  }

  private void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    if (asPostgres && isRoot()) {
      cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    cmd.addAll(command);
    File out = dir.resolve("commands.log").toFile();
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(out)).start();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("command failed: " + String.join(" ", cmd) + "\n" + Files.readString(out.toPath()));
    }
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"), true);
    } catch (IllegalStateException alreadyStopped) {
      // nothing to stop
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
