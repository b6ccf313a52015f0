package dev.argus.config;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The defaults shipped inside the jar ({@code conf/argus.json}, {@code conf/agents/}, {@code webroot/}), so that
 * the jar runs from any folder. A relative location names a file or folder of the working directory first; only
 * when that does not exist is the bundled copy of the same name used. Blocking (file system): call at start-up.
 */
public final class BundledFiles {

  private BundledFiles() {
  }

  /**
   * {@code location} itself when it exists (or is absolute), otherwise the bundled copy of that name as a path
   * readable with {@link Files} (inside the jar, or in {@code target/classes} when run from the build), otherwise
   * {@code location} unchanged (so that reading it fails with the usual message).
   */
  public static Path resolve(String location) {
    Path local = Path.of(location);
    if (local.isAbsolute() || Files.exists(local)) {
      return local;
    }
    return bundled(location).orElse(local);
  }

  /** The bundled copy of a relative location, if the jar holds one. */
  public static Optional<Path> bundled(String location) {
    String name = location.replace('\\', '/');
    while (name.startsWith("./")) {
      name = name.substring(2);
    }
    URL url = BundledFiles.class.getClassLoader().getResource(name);
    if (url == null) {
      return Optional.empty();
    }
    try {
      URI uri = url.toURI();
      if (!"jar".equals(uri.getScheme())) {
        return Optional.of(Path.of(uri));
      }
      return Optional.of(jarFileSystem(uri).provider().getPath(uri));
    } catch (URISyntaxException | IOException | RuntimeException e) {
      throw new ConfigException("cannot read the bundled " + name + ": " + e.getMessage());
    }
  }

  private static synchronized FileSystem jarFileSystem(URI uri) throws IOException {
    try {
      return FileSystems.newFileSystem(uri, Map.of());
    } catch (FileSystemAlreadyExistsException e) {
      return FileSystems.getFileSystem(uri);
    }
  }
}
