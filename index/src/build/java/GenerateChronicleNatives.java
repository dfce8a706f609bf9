/*
 * Build-time generator, run by exec-maven-plugin in index's generate-sources phase (see
 * index/pom.xml); not part of any jar.
 *
 * Chronicle Map keeps its global file header in a Chronicle Values "native" class,
 * VanillaGlobalMutableState$$Native. When that class is missing from the class path, Chronicle
 * Values writes its source with JavaPoet and compiles it with javac at run time: about 0.6 s of
 * every JVM that opens a map (measured: first map open 1,230 ms -> 629 ms once it is precompiled).
 * Chronicle Values first tries ClassLoader.loadClass on that name, so compiling the same source at
 * build time, from the Chronicle version the build depends on, removes the run-time javac step.
 *
 * The source comes from Chronicle's own generator (net.openhft.chronicle.values.Generators, package
 * private, hence reflection), so it always matches the library version in use.
 *
 * Usage: java -cp <index compile class path> GenerateChronicleNatives <output source directory>
 */
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;

public final class GenerateChronicleNatives {
    private static final String[] VALUE_INTERFACES = {"net.openhft.chronicle.hash.VanillaGlobalMutableState"};

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: GenerateChronicleNatives <output source directory>");
        }
        System.setProperty("chronicle.analytics.disable", "true");
        Path out = Path.of(args[0]);
        Class<?> valueModel = Class.forName("net.openhft.chronicle.values.ValueModel");
        Method acquire = valueModel.getMethod("acquire", Class.class);
        Method simpleName = valueModel.getDeclaredMethod("simpleName");
        simpleName.setAccessible(true);
        Method generate = Class.forName("net.openhft.chronicle.values.Generators")
                .getDeclaredMethod("generateNativeClass", valueModel, String.class);
        generate.setAccessible(true);
        for (String name : VALUE_INTERFACES) {
            Class<?> type = Class.forName(name);
            Object model = acquire.invoke(null, type);
            String nativeName = simpleName.invoke(model) + "$$Native";
            String source = (String) generate.invoke(null, model, nativeName);
            Path file = out.resolve(type.getPackageName().replace('.', '/')).resolve(nativeName + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source);
        }
    }
}
