package dev.argus.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * An exclusive lock on the data folder ({@code <data.dir>/argus.lock}), held by the server for as long as it runs
 * and by {@code argus ingest} while it writes, so that the two never write the same store at once (a running server
 * would not see what another process wrote). It is an operating-system file lock: it goes away with the process,
 * even after {@code kill -9}, so a stale file never blocks a start. The file names its holder for the message the
 * second process shows. Blocking: call off the event loop.
 */
public final class DataFolderLock implements AutoCloseable {

  public static final String FILE_NAME = "argus.lock";

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private DataFolderLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /** The folder is held by another process (or another part of this one). */
  public static final class HeldException extends RuntimeException {
    public HeldException(String message) {
      super(message);
    }
  }

  /**
   * Takes the lock or fails at once with {@link HeldException} naming the holder.
   *
   * @param holder who takes it, e.g. {@code "argus serve"}; written into the file with the process id
   */
  public static DataFolderLock acquire(Path dataDir, String holder) {
    Path file = dataDir.resolve(FILE_NAME);
    FileChannel channel = null;
    try {
      Files.createDirectories(dataDir);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        String by = Files.readString(file, StandardCharsets.UTF_8).strip();
        channel.close();
        throw new HeldException("the data folder " + dataDir + " is in use" + (by.isEmpty() ? "" : " by " + by)
            + "; stop that process first, or send documents to the running server (POST /api/documents)");
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((holder + " (pid " + ProcessHandle.current().pid() + ", since "
          + Instant.now() + ")\n").getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(false);
      return new DataFolderLock(file, channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new ConfigException("cannot lock the data folder " + dataDir + ": " + e.getMessage());
    }
  }

  public Path file() {
    return file;
  }

  /** Releases the lock (the file stays; it is harmless without the lock). */
  @Override
  public void close() {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } catch (IOException ignored) {
      // the channel closes below; the operating system releases the lock with it
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing to do
      }
    }
  }
}
