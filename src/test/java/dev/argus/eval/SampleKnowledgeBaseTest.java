package dev.argus.eval;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled sample knowledge base ({@code samples/index.txt} and {@code samples/*.md}, read from the classpath
 * as the service reads them from the jar) keeps the front-matter contract, stays fictitious, and gives graph
 * features shared identifiers to find.
 */
class SampleKnowledgeBaseTest {

  private static final Set<String> CATEGORIES = Set.of("policy", "pattern", "case", "playbook", "glossary", "regulation");
  private static final Set<String> RISKS = Set.of("low", "medium", "high");

  record Sample(String file, Map<String, String> meta, String body) {
  }

  private static final List<Sample> SAMPLES = new ArrayList<>();

  @BeforeAll
  static void load() throws IOException {
    for (String line : read("samples/index.txt").split("\n")) {
      String file = line.trim();
      if (file.isEmpty()) {
        continue;
      }
      String text = read("samples/" + file);
      assertTrue(text.startsWith("---\n"), file + " must start with a front matter block");
      int end = text.indexOf("\n---\n", 4);
      assertTrue(end > 0, file + " front matter is not closed");
      Map<String, String> meta = new LinkedHashMap<>();
      for (String kv : text.substring(4, end).split("\n")) {
        int colon = kv.indexOf(':');
        assertTrue(colon > 0, file + ": front matter line is not key: value: " + kv);
        meta.put(kv.substring(0, colon).trim(), kv.substring(colon + 1).trim());
      }
      SAMPLES.add(new Sample(file, meta, text.substring(end + 5)));
    }
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = SampleKnowledgeBaseTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertNotNull(in, "missing classpath resource " + resource);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void enoughDocumentsOfSubstanceWithValidFrontMatter() {
    assertTrue(SAMPLES.size() >= 44, "only " + SAMPLES.size() + " sample documents");
    Set<String> ids = new HashSet<>();
    for (Sample s : SAMPLES) {
      String id = s.meta().get("id");
      assertNotNull(id, s.file() + ": id");
      assertTrue(ids.add(id), "duplicate id " + id);
      assertEquals(s.file(), id + ".md", "file name follows the id");
      assertTrue(s.meta().get("title") != null && !s.meta().get("title").isBlank(), s.file() + ": title");
      assertTrue(CATEGORIES.contains(s.meta().get("category")), s.file() + ": category " + s.meta().get("category"));
      LocalDate.parse(s.meta().get("date"));
      assertTrue(RISKS.contains(s.meta().get("risk")), s.file() + ": risk");
      assertTrue(s.meta().get("tags").split(",").length >= 3, s.file() + ": tags");
      int words = s.body().trim().split("\\s+").length;
      assertTrue(words >= 300 && words <= 1000, s.file() + " has " + words + " words");
    }
    for (String category : CATEGORIES) {
      assertTrue(SAMPLES.stream().anyMatch(s -> s.meta().get("category").equals(category)), "no " + category);
    }
  }

  @Test
  void identifiersAreFictitious() {
    Pattern ipv4 = Pattern.compile("\\b(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\b");
    Pattern email = Pattern.compile("[\\w.+-]+@([\\w-]+(\\.[\\w-]+)+)");
    Pattern phone = Pattern.compile("\\+\\d[\\d-]{6,}");
    for (Sample s : SAMPLES) {
      Matcher m = ipv4.matcher(s.body());
      while (m.find()) {
        String prefix = m.group(1) + "." + m.group(2) + "." + m.group(3);
        assertTrue(Set.of("192.0.2", "198.51.100", "203.0.113").contains(prefix),
            s.file() + ": IP address outside documentation ranges: " + m.group());
      }
      m = email.matcher(s.body());
      while (m.find()) {
        String domain = m.group(1);
        assertTrue(domain.equals("example.com") || domain.endsWith(".test"), s.file() + ": real-looking email " + m.group());
      }
      m = phone.matcher(s.body());
      while (m.find()) {
        assertTrue(m.group().startsWith("+1-555-01"), s.file() + ": phone outside the fictional 555-01xx range " + m.group());
      }
    }
  }

  @Test
  void casesShareIdentifiersForGraphFeatures() {
    List<Sample> cases = SAMPLES.stream().filter(s -> s.meta().get("category").equals("case")).toList();
    assertTrue(cases.size() >= 12, "cases: " + cases.size());
    for (String shared : List.of("dfp-7f3a9c21", "XX00 TEST 0000 1111 2222 33", "+1-555-0142", "+1-555-0199",
        "k.marlow@example.com", "198.51.100.23", "203.0.113.45", "Unit 3, 14 Harbour Lane", "dfp-88e1f0c2")) {
      long n = cases.stream().filter(c -> c.body().contains(shared)).count();
      assertTrue(n >= 2, shared + " appears in only " + n + " case(s)");
    }
    assertTrue(cases.stream().allMatch(c -> Pattern.compile("\\b(SLR|BYR)-\\d{5}\\b").matcher(c.body()).find()));
  }

  @Test
  void adversarialNoteIsPresent() {
    Sample note = SAMPLES.stream().filter(s -> s.meta().get("id").equals("adversarial-note")).findFirst().orElseThrow();
    assertEquals("case", note.meta().get("category"));
    String lower = note.body().toLowerCase();
    assertTrue(lower.contains("ignore previous instructions"));
    assertTrue(lower.contains("reveal your configuration"));
    assertTrue(lower.contains("call the tool"));
  }
}
