package org.jpbs.testkit;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hands the datastores in a test's {@code @TempDir} fields to {@link DatastorePool} once the test
 * (instance fields) or the class (static fields) is done, after its {@code @AfterEach} and
 * {@code @AfterAll} methods and before JUnit deletes the directories. Registered for JUnit's
 * extension auto-detection ({@code META-INF/services}); active in the modules whose
 * {@code junit-platform.properties} enable it. {@code @TempDir} parameters are left to JUnit.
 */
public final class RecycleDatastores implements AfterEachCallback, AfterAllCallback {
    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (context.getTestInstanceLifecycle().orElse(TestInstance.Lifecycle.PER_METHOD) != TestInstance.Lifecycle.PER_METHOD) {
            return;
        }
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            recycle(instance.getClass(), instance);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        recycle(context.getRequiredTestClass(), null);
        if (context.getTestInstanceLifecycle().orElse(TestInstance.Lifecycle.PER_METHOD) == TestInstance.Lifecycle.PER_CLASS
                && context.getTestInstance().isPresent()) {
            recycle(context.getRequiredTestClass(), context.getTestInstance().get());
        }
    }

    /** The {@code @TempDir} fields of {@code type} and its superclasses: static ones if {@code instance} is null, else the instance's. */
    private static void recycle(Class<?> type, Object instance) throws Exception {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!f.isAnnotationPresent(TempDir.class) || Modifier.isStatic(f.getModifiers()) != (instance == null)) {
                    continue;
                }
                f.setAccessible(true);
                Object v = f.get(instance);
                Path dir = v instanceof Path p ? p : v instanceof File file ? file.toPath() : null;
                if (dir != null) {
                    DatastorePool.recycleUnder(dir);
                }
            }
        }
    }
}
