package dev.argus.access;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.argus.testing.Await.await;

/**
 * Starts the real service with keys required and reads the admin key the first start prints on standard output
 * ({@code admin key: <key>}), as an operator would.
 */
public final class ProtectedApp {

  public static final Pattern ADMIN_LINE = Pattern.compile("admin key: (argus_[a-z0-9]{12}_[A-Za-z0-9_-]{43})");

  /** The started app, its admin key and everything it printed on standard output while starting. */
  public record Started(TestApp app, String adminKey, String printed) {
  }

  private ProtectedApp() {
  }

  public static synchronized Started start(Vertx vertx, ArgusConfig conf) {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8));
    TestApp app;
    try {
      app = await(TestApp.start(vertx, conf.with("auth", "required", true)));
    } finally {
      System.setOut(original);
    }
    String printed = captured.toString(StandardCharsets.UTF_8);
    Matcher m = ADMIN_LINE.matcher(printed);
    if (!m.find()) {
      throw new AssertionError("no 'admin key: <key>' line was printed at start: " + printed);
    }
    return new Started(app, m.group(1), printed);
  }

  /** Writes to two streams (the console stays readable while the test reads what was printed). */
  static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws java.io.IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] buf, int off, int len) throws java.io.IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }

    @Override
    public void flush() throws java.io.IOException {
      a.flush();
      b.flush();
    }
  }
}
