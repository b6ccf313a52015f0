package dev.argus.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Fails a test class when Vert.x's blocked-thread checker reported a blocked event loop or worker while it
 * ran. Registered for every test class through JUnit's extension auto-detection.
 */
public final class BlockedThreadGuard implements BeforeAllCallback, AfterAllCallback {

  private static final Logger CHECKER = Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker");
  private static final List<String> REPORTS = new CopyOnWriteArrayList<>();
  private static final Handler HANDLER = new Handler() {
    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
        REPORTS.add(record.getMessage());
      }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };

  static {
    CHECKER.addHandler(HANDLER);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    REPORTS.clear();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (!REPORTS.isEmpty()) {
      List<String> copy = List.copyOf(REPORTS);
      REPORTS.clear();
      throw new AssertionError("the blocked-thread checker reported " + copy.size() + " blocked thread(s) in "
          + context.getDisplayName() + ": " + copy.get(0));
    }
  }
}
