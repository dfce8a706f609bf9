package dev.quiver.storage.entity;

/**
 * Where an entity's name lies as UTF-8 bytes, inside the entity index's own storage
 * ({@link EntityIndex#nameBytes}): {@link #length} bytes of {@link #bytes} from {@link #offset}.
 * A page writer reads the name from there instead of copying it out. Valid until that entity's
 * block of names changes (a name set, a block read or forgotten); the bytes must not be written.
 * One holder serves many names.
 */
public final class NameBytes {
    private byte[] bytes;
    private int offset;
    private int length;

    void set(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    /** The array holding the name (shared: read only). */
    public byte[] bytes() {
        return bytes;
    }

    /** Where the name starts in {@link #bytes}. */
    public int offset() {
        return offset;
    }

    /** The name's length in bytes. */
    public int length() {
        return length;
    }
}
