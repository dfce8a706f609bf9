package dev.quiver.storage;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The storage module's package rules (issue 8): dependencies go one way, in-memory classes know
 * neither the on-disk format nor the files, and no class grows past about 800 lines.
 *
 * <pre>
 *   tx  &lt;-  entity  &lt;-  table  &lt;-  rules  &lt;-  check
 *                       ^        format &lt;------'
 *   World (facade) uses all of them, wired together in WorldModel, and the file layer (storage.file),
 *   which knows none of them.
 * </pre>
 */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.quiver.storage", "dev.quiver.index");
    }


    private static void check(ArchRule rule) {
        rule.check(classes);
    }

    @Test
    void inMemoryClassesKnowNeitherTheFormatNorTheFiles() {
        check(noClasses().that().resideInAnyPackage("..storage.entity..", "..storage.table..", "..storage.rules..",
                        "..storage.tx..")
                .should().dependOnClassesThat().resideInAnyPackage("..storage.format..", "..storage.check..",
                        "..storage.file..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.quiver.index.PagedMap"));
    }

    @Test
    void theFormatDoesNotKnowTheFilesOrTheRules() {
        check(noClasses().that().resideInAPackage("..storage.format..")
                .should().dependOnClassesThat().resideInAnyPackage("..storage.rules..", "..storage.check..",
                        "..storage.file..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.quiver.index.PagedMap"));
    }

    @Test
    void dependenciesGoOneWay() {
        check(noClasses().that().resideInAPackage("..storage.tx..")
                .should().dependOnClassesThat().resideInAnyPackage("..storage.entity..", "..storage.table..",
                        "..storage.rules..", "..storage.format..", "..storage.check.."));
        check(noClasses().that().resideInAPackage("..storage.entity..")
                .should().dependOnClassesThat().resideInAnyPackage("..storage.table..", "..storage.rules.."));
        check(noClasses().that().resideInAPackage("..storage.table..")
                .should().dependOnClassesThat().resideInAnyPackage("..storage.rules.."));
    }

    @Test
    void theFileLayerKnowsOnlyTheFilesAndTheApiTypes() {
        check(noClasses().that().resideInAPackage("..storage.file..")
                .should().dependOnClassesThat().resideInAnyPackage("..storage.entity..", "..storage.table..",
                        "..storage.rules..", "..storage.tx..", "..storage.format..", "..storage.check..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.quiver.storage.World"));
    }

    @Test
    void onlyTheFacadeUsesTheWorld() {
        check(noClasses().that().resideOutsideOfPackage("dev.quiver.storage")
                .should().dependOnClassesThat().haveFullyQualifiedName("dev.quiver.storage.World"));
    }

    @Test
    void theIndexModuleKnowsNoStorageClass() {
        check(noClasses().that().resideInAPackage("dev.quiver.index..")
                .should().dependOnClassesThat().resideInAPackage("dev.quiver.storage.."));
    }

    @Test
    void theFilesAreTheFormatsPageFamilies() {
        assertEquals(List.of(dev.quiver.storage.format.WorldFormat.MAP_NAMES),
                List.of(dev.quiver.storage.file.Store.MAP_NAMES));
    }

    @Test
    void noClassIsPastAbout800Lines() throws IOException {
        Path src = Path.of("src/main/java");
        List<String> big;
        try (Stream<Path> s = Files.walk(src)) {
            big = s.filter(p -> p.toString().endsWith(".java")).filter(p -> {
                try {
                    return Files.readAllLines(p).size() > 820;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(Path::toString).collect(Collectors.toList());
        }
        assertEquals(List.of(), big, "classes past about 800 lines");
    }
}
