package org.jpbs.cli;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The architecture rules of docs/design.md ("Modules and dependencies"), checked on the compiled
 * main classes of every module (the cli module's test class path holds them all): the codec and
 * filesystem modules never touch the network, the one-way module dependencies hold, and no
 * module has a cycle between its packages. Maven's module dependencies already keep most of
 * these apart at compile time; this test also catches a dependency added to a pom, a library
 * pulled in transitively, and cycles, which Maven cannot see.
 */
class ArchitectureTest {
    private static final String[] MODULES = {"core", "datastore", "s3", "client", "jobs", "server", "vma", "cli"};

    /** {@code java.net} classes that are names and codecs, not sockets or HTTP. */
    private static final Set<String> ALLOWED_JAVA_NET = Set.of(
            "java.net.URI", "java.net.URISyntaxException", "java.net.URLEncoder", "java.net.URLDecoder",
            "java.net.InetAddress", "java.net.UnknownHostException");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // test-jars of other modules (core's SharedVectors): test code, not architecture
                .withImportOption(location -> !location.contains("-tests.jar") && !location.contains("/test-classes/"))
                .importPackages("org.jpbs");
    }

    /** Guards against a vacuous pass: the class path really holds the main classes of each module. */
    @Test
    void everyModuleIsImported() {
        for (String m : MODULES) {
            String prefix = "org.jpbs." + m + ".";
            long n = classes.stream().filter(c -> c.getName().startsWith(prefix)).count();
            assertTrue(n >= 5, "only " + n + " main classes of module " + m + " were found");
        }
    }

    /** core, datastore and vma are codecs and filesystem policy: no Netty, no sockets, no HTTP. */
    @Test
    void codecAndFilesystemModulesUseNoNetwork() {
        DescribedPredicate<JavaClass> network = new DescribedPredicate<>(
                "are Netty, sockets or HTTP (io.netty, javax.net, java.net.http, java.net except URI/InetAddress)") {
            @Override
            public boolean test(JavaClass c) {
                String n = c.getName();
                String pkg = c.getPackageName();
                return pkg.startsWith("io.netty") || pkg.startsWith("javax.net") || pkg.startsWith("java.net.http")
                        || (pkg.equals("java.net") && !ALLOWED_JAVA_NET.contains(n));
            }
        };
        noClasses().that().resideInAnyPackage("org.jpbs.core..", "org.jpbs.datastore..", "org.jpbs.vma..")
                .should().dependOnClassesThat(network)
                .check(classes);
    }

    @Test
    void coreDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage("org.jpbs.core..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jpbs.datastore..", "org.jpbs.client..",
                        "org.jpbs.jobs..", "org.jpbs.server..", "org.jpbs.vma..", "org.jpbs.cli..")
                .check(classes);
    }

    @Test
    void datastoreAndVmaKnowNoServerClientOrCli() {
        noClasses().that().resideInAnyPackage("org.jpbs.datastore..", "org.jpbs.vma..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jpbs.client..", "org.jpbs.jobs..",
                        "org.jpbs.server..", "org.jpbs.cli..")
                .check(classes);
        noClasses().that().resideInAPackage("org.jpbs.datastore..")
                .should().dependOnClassesThat().resideInAPackage("org.jpbs.vma..")
                .check(classes);
        noClasses().that().resideInAPackage("org.jpbs.vma..")
                .should().dependOnClassesThat().resideInAPackage("org.jpbs.datastore..")
                .check(classes);
    }

    /**
     * The S3 datastore backend (module datastore-s3, packages org.jpbs.s3) is an HTTP client and
     * lives apart from datastore so that datastore stays free of the network (docs/design.md):
     * it may use core and datastore; datastore never sees it; it never sees client, server, vma
     * or cli.
     */
    @Test
    void s3BackendSitsBesideTheDatastore() {
        noClasses().that().resideInAPackage("org.jpbs.datastore..")
                .should().dependOnClassesThat().resideInAPackage("org.jpbs.s3..")
                .check(classes);
        noClasses().that().resideInAPackage("org.jpbs.s3..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jpbs.client..", "org.jpbs.server..",
                        "org.jpbs.vma..", "org.jpbs.cli..", "io.netty..")
                .check(classes);
    }

    /**
     * The server may depend on the S3 backend, deliberately (docs/design.md#modules-and-dependencies):
     * it opens configured datastores through S3DatastoreOpener (the one place choosing the backend)
     * and serves config/s3 from org.jpbs.s3.config, creates datastores (POST config/datastore) with
     * DatastoreCreator as the CLI does; it never uses the S3 client or the store's
     * internals, which stay behind the datastore's ChunkStore and Datastore.
     */
    @Test
    void serverUsesOnlyTheS3OpenerAndConfig() {
        noClasses().that().resideInAPackage("org.jpbs.server..")
                .should().dependOnClassesThat(resideInAPackage("org.jpbs.s3..")
                        .and(DescribedPredicate.not(resideInAPackage("org.jpbs.s3.config..")))
                        .and(DescribedPredicate.not(JavaClass.Predicates.simpleName("S3DatastoreOpener")))
                        // POST config/datastore creates datastores as 'jpbs datastore create' does
                        .and(DescribedPredicate.not(JavaClass.Predicates.simpleName("DatastoreCreator")))
                        .and(DescribedPredicate.not(JavaClass.Predicates.simpleName("BadParameter"))))
                .check(classes);
    }

    /** The client talks to a datastore only through the core interfaces (ChunkSink, ChunkSource). */
    @Test
    void clientNeverSeesTheDatastore() {
        noClasses().that().resideInAPackage("org.jpbs.client..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jpbs.datastore..", "org.jpbs.s3..",
                        "org.jpbs.jobs..", "org.jpbs.server..", "org.jpbs.cli..")
                .check(classes);
    }

    /**
     * The sync engine (jobs) joins the client and the datastore; the server reaches it only
     * through the SyncTasks hook the command line hands in ({@code docs/design.md#sync-engine}).
     */
    @Test
    void jobsKnowNoServerOrCli() {
        noClasses().that().resideInAPackage("org.jpbs.jobs..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jpbs.server..", "org.jpbs.cli..",
                        "org.jpbs.vma..")
                .check(classes);
    }

    @Test
    void serverNeverSeesClientOrCli() {
        noClasses().that().resideInAPackage("org.jpbs.server..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jpbs.client..", "org.jpbs.jobs..",
                        "org.jpbs.cli..")
                .check(classes);
    }

    /**
     * Package cycles that exist today, each named by the dependency that closes it; tolerated only
     * so that every other cycle fails (remove an entry once the code is untangled):
     * core: crypto.MasterKey wraps its result in a blob.DataBlob, while blob uses crypto.CryptConfig;
     * client: progress.Summary prints backup.BackupStats and restore.RestoreStats, while both
     * engines report to progress.ProgressListener; cli: keys.KeyCommand uses commands.HelpOption,
     * while the commands use keys.CryptOptions.
     */
    private static final Map<String, List<String[]>> KNOWN_CYCLE_EDGES = Map.of(
            "core", List.<String[]>of(new String[] {"crypto", "blob"}),
            "client", List.of(new String[] {"progress", "backup"}, new String[] {"progress", "restore"}),
            "cli", List.<String[]>of(new String[] {"keys", "commands"}));

    /** No cycle between the packages of one module (org.jpbs.MODULE.X and everything below X). */
    @ParameterizedTest
    @ValueSource(strings = {"core", "datastore", "s3", "client", "jobs", "server", "vma", "cli"})
    void noPackageCyclesWithinAModule(String module) {
        String base = "org.jpbs." + module + ".";
        SliceRule rule = slices().matching(base + "(*)..").should().beFreeOfCycles();
        for (String[] edge : KNOWN_CYCLE_EDGES.getOrDefault(module, List.of())) {
            rule = rule.ignoreDependency(resideInAPackage(base + edge[0] + ".."), resideInAPackage(base + edge[1] + ".."));
        }
        rule.check(classes);
    }
}
