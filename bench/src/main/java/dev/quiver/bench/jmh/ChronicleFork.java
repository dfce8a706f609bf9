package dev.quiver.bench.jmh;

import org.openjdk.jmh.annotations.Fork;

/**
 * The fork every Quiver micro-benchmark runs in (JMH applies a superclass's annotations to its
 * subclasses): one JVM per benchmark with a 2 GiB heap and the flags Chronicle Map needs on JDK 17
 * (the same list as the root pom's {@code quiver.jvm.flags}), usage analytics off.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public abstract class ChronicleFork {
}
