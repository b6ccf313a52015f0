package dev.argus.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundled sample knowledge base: the classpath folder {@code ingest.samplesPath} holds Markdown files with
 * front matter and an {@code index.txt} naming them (one a line, {@code #} comments allowed), so that they can
 * be read from inside the jar. Blocking: call it off the event loop.
 */
public final class SampleDocuments {

  private SampleDocuments() {
  }

  /** The sample documents, or an empty list when there is no index on the classpath. */
  public static List<SourceDocument> load(String path, String namespace) throws IOException {
    ClassLoader loader = SampleDocuments.class.getClassLoader();
    String base = path.endsWith("/") ? path : path + "/";
    String index = read(loader, base + "index.txt");
    if (index == null) {
      return List.of();
    }
    List<SourceDocument> docs = new ArrayList<>();
    for (String line : index.split("\r?\n")) {
      String name = line.strip();
      if (name.isEmpty() || name.startsWith("#")) {
        continue;
      }
      String content = read(loader, base + name);
      if (content == null) {
        throw new IOException("sample " + base + name + " is listed in " + base + "index.txt but missing");
      }
      Format format = Format.ofFileName(name).orElse(Format.MARKDOWN);
      docs.add(SourceDocument.ofFile(name, format, content, namespace));
    }
    return docs;
  }

  private static String read(ClassLoader loader, String resource) throws IOException {
    try (InputStream in = loader.getResourceAsStream(resource)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
