package dev.argus.cli;

import dev.argus.access.ApiKey;
import dev.argus.access.AuditStore;
import dev.argus.access.KeyService;
import dev.argus.access.KeyStore;
import dev.argus.access.Role;
import dev.argus.common.ApiException;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code argus keys create --role ROLE [--namespaces a,b] [--rate-limit N] [--label TEXT]}, {@code argus keys list},
 * {@code argus keys revoke ID}: API keys in the configured store (the running server sees changes within
 * {@code auth.keyRefreshMs}). {@code create} prints the key once on standard output; only its hash is stored. Every
 * change is written to the audit log as actor {@code cli}. Exits 1 when the store refuses, 2 on usage errors.
 */
@Command(name = "keys", mixinStandardHelpOptions = true, description = "Create, list and revoke API keys.",
    subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
public final class KeysCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    System.err.println("argus keys: name a sub-command: create, list, revoke");
    return 2;
  }

  /** Opens the store, runs the action, closes everything; exit codes as above. */
  static int withKeys(Path config, String name, Function<KeyService, Future<Integer>> action) {
    PrintStream err = System.err;
    ArgusConfig conf;
    try {
      conf = ArgusConfig.load(config, System.getenv());
    } catch (ConfigException e) {
      err.println("argus keys " + name + ": " + e.getMessage());
      return 2;
    }
    Vertx vertx = Vertx.vertx();
    try {
      Database db = Database.open(vertx, conf).toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
      try {
        KeyService keys = new KeyService(KeyStore.of(db), AuditStore.of(db), conf.auth().maxKeys());
        return action.apply(keys).toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
      } finally {
        db.close().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
      }
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause();
      err.println("argus keys " + name + ": " + (cause == null ? e.getMessage() : cause.getMessage()));
      return cause instanceof ApiException api && api.status() < 500 && api.status() != 409 ? 2 : 1;
    } catch (Exception e) {
      err.println("argus keys " + name + ": " + e.getMessage());
      return 1;
    } finally {
      vertx.close();
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a key and print it once.")
  static final class Create implements Callable<Integer> {
    @Option(names = "--role", required = true, description = "admin, analyst, upstream or reader")
    String role;
    @Option(names = "--namespaces", split = ",", description = "limit the key to these namespaces (default: all)")
    List<String> namespaces;
    @Option(names = "--rate-limit", description = "requests per minute (default: the role's, auth.rateLimits)")
    Integer rateLimit;
    @Option(names = "--label", description = "what the key is for")
    String label;
    @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file")
    Path config;

    @Override
    public Integer call() {
      Role r = Role.parse(role);
      if (r == null) {
        System.err.println("argus keys create: --role must be one of " + Role.names());
        return 2;
      }
      if (rateLimit != null && (rateLimit < 0 || rateLimit > 1_000_000)) {
        System.err.println("argus keys create: --rate-limit must be 0..1000000 requests per minute");
        return 2;
      }
      if (label != null && label.length() > KeyService.MAX_LABEL_CHARS) {
        System.err.println("argus keys create: --label is longer than " + KeyService.MAX_LABEL_CHARS);
        return 2;
      }
      List<String> ns;
      try {
        ns = namespaces == null ? null : KeyService.validNamespaces(namespaces.stream().map(String::strip).toList());
      } catch (ApiException e) {
        System.err.println("argus keys create: --namespaces: " + e.getMessage());
        return 2;
      }
      return withKeys(config, "create", keys -> keys.create(new KeyService.KeyRequest(r, ns, rateLimit, label),
          "cli", "admin").map(created -> {
            System.out.println(created.text());
            System.err.println("created key " + created.key().id() + " (role " + r.wireName()
                + (ns == null ? "" : ", namespaces " + String.join(",", ns)) + "); it is shown only this once");
            return 0;
          }));
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List keys (never their secrets).")
  static final class ListKeys implements Callable<Integer> {
    @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file")
    Path config;

    @Override
    public Integer call() {
      return withKeys(config, "list", keys -> keys.list().map(list -> {
        System.out.printf(Locale.ROOT, "%-12s  %-8s  %-7s  %-10s  %-24s  %s%n", "ID", "ROLE", "STATE", "RATE/MIN",
            "CREATED", "NAMESPACES / LABEL");
        for (ApiKey k : list) {
          System.out.printf(Locale.ROOT, "%-12s  %-8s  %-7s  %-10s  %-24s  %s%s%n", k.id(), k.role().wireName(),
              k.active() ? "active" : "revoked", k.rateLimit() == null ? "role" : k.rateLimit().toString(),
              java.time.Instant.ofEpochMilli(k.createdAt()).toString(),
              k.namespaces() == null ? "*" : String.join(",", k.namespaces()),
              k.label().isEmpty() ? "" : "  " + k.label());
        }
        return 0;
      }));
    }
  }

  @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a key by its id.")
  static final class Revoke implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "ID", description = "the key's id (the part after argus_)")
    String id;
    @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file")
    Path config;

    @Override
    public Integer call() {
      return withKeys(config, "revoke", keys -> keys.revoke(id, "cli", "admin").map(k -> {
        System.out.println("revoked key " + k.id());
        return 0;
      }));
    }
  }

}
