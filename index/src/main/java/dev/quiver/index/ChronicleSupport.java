package dev.quiver.index;

import java.util.List;

/**
 * Process-wide settings that must be in place before any Chronicle class loads: usage analytics
 * off (nothing of Quiver's may reach the network), quiet start-up banners, and a segment lock
 * timeout of {@value #LOCK_TIMEOUT_SECONDS} s instead of Chronicle's 60 s (a damaged lock word in a
 * map file makes every access to that segment spin until the timeout, which PagedMap then reports
 * as a CorruptionException; {@code -Dnet.openhft.chronicle.map.lockTimeoutSeconds=N} overrides it).
 */
public final class ChronicleSupport {
    private ChronicleSupport() {}

    /** Seconds a Chronicle Map segment lock is waited for before the access fails. */
    public static final int LOCK_TIMEOUT_SECONDS = 10;

    /** Chronicle's system property for {@link #LOCK_TIMEOUT_SECONDS}, read once when Chronicle loads. */
    public static final String LOCK_TIMEOUT_PROPERTY = "net.openhft.chronicle.map.lockTimeoutSeconds";

    /** Idempotent; call before touching Chronicle Map. */
    public static void init() {
        System.setProperty("chronicle.analytics.disable", "true");
        setIfAbsent("chronicle.announcer.disable", "true");
        setIfAbsent("chronicle.disk.monitor.disable", "true");
        setIfAbsent("jvm.resource.tracing", "false");
        setIfAbsent("disable.thread.safety", "true");
        setIfAbsent(LOCK_TIMEOUT_PROPERTY, Integer.toString(LOCK_TIMEOUT_SECONDS));
        // Chronicle's Jvm class loads its POSIX binding (jnr-ffi, which generates native call stubs
        // at run time: about 0.2 s of every process start) eagerly. Quiver needs none of it: files
        // are forced through FileChannel.force, never Chronicle's msync.
        net.openhft.posix.PosixAPI.useNoOpPosixApi();
    }

    /**
     * The Chronicle classes whose static initialisers {@link #warmUpInBackground} runs, in the order
     * a first map open initialises them: together most of the class initialisation of that open
     * (measured: Wires, with the SimpleDateFormat of its Java-types serialisers, and
     * ChronicleMapBuilder are the largest). Names, not class literals, so that the list can name
     * Chronicle's internal classes; a test holds every name to a class on the class path.
     */
    static final List<String> WARM_CLASSES = List.of(
            "net.openhft.chronicle.core.OS",
            "net.openhft.chronicle.core.Jvm",
            "net.openhft.chronicle.core.util.StringUtils",
            "net.openhft.chronicle.core.io.AbstractCloseable",
            "net.openhft.chronicle.core.io.VanillaReferenceCounted",
            "net.openhft.chronicle.bytes.internal.BytesInternal",
            "net.openhft.chronicle.bytes.internal.NativeBytesStore",
            "net.openhft.chronicle.bytes.BytesUtil",
            "net.openhft.chronicle.map.ChronicleMapBuilder",
            "net.openhft.chronicle.values.CodeTemplate",
            "net.openhft.chronicle.wire.Wires",
            "net.openhft.chronicle.wire.AbstractWire",
            "net.openhft.chronicle.wire.YamlWireOut",
            "net.openhft.chronicle.wire.TextWire",
            "net.openhft.chronicle.wire.ValueIn",
            "net.openhft.chronicle.wire.SerializationStrategies");

    /** The running or finished warm-up, null when none was started. */
    private static volatile Thread warmUp;

    /** The running or finished warm-up of the JDK facilities, null when none was started. */
    private static volatile Thread jdkWarmUp;

    /** The warm-up thread, null when none was started (for tests). */
    static Thread warmUpThread() {
        return warmUp;
    }

    /** The JDK warm-up thread, null when none was started (for tests). */
    static Thread jdkWarmUpThread() {
        return jdkWarmUp;
    }

    /**
     * Starts, in a daemon thread, the work of a first map open that needs no file: the static
     * initialisation of the Chronicle classes of {@link #WARM_CLASSES} and Chronicle Values' model
     * of the map header class. The command line calls this first thing when its arguments name a
     * subcommand, so that this work (about 0.1 s of CPU) runs on another core while the command
     * line is parsed. {@link PagedMap#open} waits
     * for it to end before it touches Chronicle, so no class is ever initialised by two threads at
     * once (Chronicle's initialisers refer to each other: two threads initialising two of them in
     * opposite orders could deadlock). Best effort: a failure leaves the class uninitialised, and
     * the open then fails the way it would without the warm-up. Calls {@link #init} first;
     * idempotent.
     */
    public static synchronized void warmUpInBackground() {
        init();
        if (warmUp != null) {
            return;
        }
        Thread j = new Thread(ChronicleSupport::warmUpJdk, "quiver-jdk-warm-up");
        j.setDaemon(true);
        jdkWarmUp = j;
        j.start();
        Thread t = new Thread(ChronicleSupport::warmUp, "quiver-chronicle-warm-up");
        t.setDaemon(true);
        warmUp = t;
        t.start();
    }

    /**
     * The JDK's part of the Chronicle initialisers' work, on a third core-sized share of the start:
     * the locale data of a {@code SimpleDateFormat} for the default locale (the Java-types serialisers
     * of Chronicle Wire make one; the first one in a process looks up the calendar and format
     * providers of every available locale, after which the lookup is cached), the runtime MXBean
     * (Chronicle's Jvm class asks for it) and the parsed annotations of the map header class's
     * methods (Chronicle Values' model of the header reads them). JDK classes only, and a Chronicle
     * interface that is loaded, never initialised: no Chronicle initialiser can wait for this
     * thread while it waits for one, so running it beside {@link #warmUp} cannot deadlock. Best
     * effort, as the Chronicle warm-up.
     */
    private static void warmUpJdk() {
        try {
            new java.text.SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS");
        } catch (RuntimeException | LinkageError e) {
            // best effort: Chronicle's own initialiser does the same work again
        }
        try {
            java.lang.management.ManagementFactory.getRuntimeMXBean();
        } catch (RuntimeException | LinkageError e) {
            // the same
        }
        try {
            for (java.lang.reflect.Method m : net.openhft.chronicle.hash.VanillaGlobalMutableState.class.getMethods()) {
                m.getDeclaredAnnotations();
                m.getParameterAnnotations();
            }
        } catch (RuntimeException | LinkageError e) {
            // the same
        }
    }

    private static void warmUp() {
        ClassLoader loader = ChronicleSupport.class.getClassLoader();
        for (String name : WARM_CLASSES) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // best effort (see warmUpInBackground): the open reports any real failure
            }
        }
        try {
            net.openhft.chronicle.values.Values.nativeClassFor(net.openhft.chronicle.hash.VanillaGlobalMutableState.class);
        } catch (RuntimeException | LinkageError e) {
            // the same
        }
    }

    /**
     * Waits until a warm-up started by {@link #warmUpInBackground} has ended; returns at once when
     * none was started. Called before the first use of Chronicle, and by the command line before
     * {@code System.exit}: a warm-up still initialising Chronicle classes while the JVM shuts down
     * can fail with a {@code NoClassDefFoundError} printed on stderr ("Shutdown in progress").
     */
    public static void awaitWarmUp() {
        join(warmUp);
    }

    /**
     * Waits, besides {@link #awaitWarmUp}, for the JDK part of the warm-up: called by the command
     * line before {@code System.exit}, for the same reason.
     */
    public static void awaitAllWarmUps() {
        join(warmUp);
        join(jdkWarmUp);
    }

    private static void join(Thread t) {
        if (t == null) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
