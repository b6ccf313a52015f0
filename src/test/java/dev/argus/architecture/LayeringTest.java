package dev.argus.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering rules of Argus, as tests so that they stay true (see ARCHITECTURE.md):
 * infrastructure never imports a capability, packages have no cycles, and a capability reaches another
 * capability's store only over the event bus.
 */
class LayeringTest {

  /** Infrastructure: below every capability; imports nothing above it. */
  static final String[] INFRASTRUCTURE = {"dev.argus.http..", "dev.argus.bus..", "dev.argus.store..",
      "dev.argus.config..", "dev.argus.common..", "dev.argus.llm..", "dev.argus.embed..", "dev.argus.metrics..", "dev.argus.provider..",
      "dev.argus.cluster.."};

  /** Entry points and tools that wire or drive everything; nothing imports them. */
  static final String[] WIRING = {"dev.argus.app..", "dev.argus.cli..", "dev.argus.bench..", "dev.argus.migration.."};

  /** Which capabilities may use a store package directly (its owners); everyone else goes over the bus. */
  static final Map<String, Set<String>> STORE_OWNERS = Map.ofEntries(
      Map.entry("knowledge", Set.of("knowledge", "ingest", "documents", "retrieval", "eval")),
      Map.entry("runs", Set.of("runs", "agent")),
      Map.entry("records", Set.of("records")),
      Map.entry("graph", Set.of("graph")),
      Map.entry("observe", Set.of("observe")),
      Map.entry("eval", Set.of("eval")),
      Map.entry("decide", Set.of("decide")),
      Map.entry("access", Set.of("access")),
      Map.entry("feedback", Set.of("feedback")),
      Map.entry("backtest", Set.of("backtest")),
      Map.entry("adversarial", Set.of("adversarial")));

  private static JavaClasses argus;

  @BeforeAll
  static void importClasses() {
    argus = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.argus");
  }

  @Test
  void infrastructureImportsNoCapability() {
    noClasses().that().resideInAnyPackage(INFRASTRUCTURE)
        .should().dependOnClassesThat(resideInAPackage("dev.argus..")
            .and(DescribedPredicate.not(resideInAnyPackage(INFRASTRUCTURE))))
        .because("infrastructure sits below the capabilities and knows none of them")
        .check(argus);
  }

  @Test
  void nothingImportsTheWiring() {
    noClasses().that().resideOutsideOfPackages(WIRING)
        .should().dependOnClassesThat().resideInAnyPackage(WIRING)
        .because("entry points, wiring and benchmarks sit on top")
        .check(argus);
  }

  @Test
  void topLevelPackagesHaveNoCycles() {
    slices().matching("dev.argus.(*)..").should().beFreeOfCycles().check(argus);
  }

  @Test
  void allPackagesHaveNoCycles() {
    slices().matching("dev.argus.(**)").should().beFreeOfCycles().check(argus);
  }

  @Test
  void storesAreReachedOnlyByTheirOwners() {
    classes().that().resideInAPackage("dev.argus..").and().resideOutsideOfPackages(WIRING)
        .should(useOnlyTheirOwnStores())
        .because("a capability reaches another capability's store over the event bus, never directly")
        .check(argus);
  }

  private static ArchCondition<JavaClass> useOnlyTheirOwnStores() {
    return new ArchCondition<>("use only the stores their capability owns") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        String capability = topLevel(item.getPackageName());
        for (Dependency d : item.getDirectDependenciesFromSelf()) {
          JavaClass target = d.getTargetClass();
          String name = target.getSimpleName();
          boolean isStore = name.endsWith("Store") || name.endsWith("Stores");
          String owner = topLevel(target.getPackageName());
          if (!isStore || owner == null || !STORE_OWNERS.containsKey(owner)) {
            continue;
          }
          if (!STORE_OWNERS.get(owner).contains(capability)) {
            events.add(SimpleConditionEvent.violated(d, d.getDescription()));
          }
        }
      }
    };
  }

  private static String topLevel(String pkg) {
    if (!pkg.startsWith("dev.argus.")) {
      return null;
    }
    String rest = pkg.substring("dev.argus.".length());
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }
}
