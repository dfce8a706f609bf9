package dev.quiver.index;

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

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
