package dev.quiver.index;

/**
 * Process-wide settings that must be in place before any Chronicle class loads: usage analytics
 * off (nothing of Quiver's may reach the network) and quiet start-up banners.
 */
public final class ChronicleSupport {
    private ChronicleSupport() {}

    /** Idempotent; call before touching Chronicle Map. */
    public static void init() {
        System.setProperty("chronicle.analytics.disable", "true");
        setIfAbsent("chronicle.announcer.disable", "true");
        setIfAbsent("chronicle.disk.monitor.disable", "true");
        setIfAbsent("jvm.resource.tracing", "false");
        setIfAbsent("disable.thread.safety", "true");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
