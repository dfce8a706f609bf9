package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.entity.Names;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;

/**
 * Names and paths of entities (Flecs v4 hierarchies): lookup of a path from the root, the path of
 * an entity, its parent, and how ids print ({@code (R,T)} for pairs, {@code #index} for anonymous
 * or dead entities). Read-only. Not thread-safe.
 */
public final class Paths {
    private final EntityIndex entities;
    private final EntityNames names;
    private final TableSet tables;
    private SparsePairs sparse;

    /** Sets the sparse pair storage (once, while the world is wired): a sparse ChildOf keeps parents there. */
    public void setSparse(SparsePairs sparse) {
        this.sparse = sparse;
    }

    public Paths(EntityIndex entities, EntityNames names, TableSet tables) {
        this.entities = entities;
        this.names = names;
        this.tables = tables;
    }

    /**
     * The entity at a path, or 0. A path of digits, or {@code #} and digits (how an anonymous
     * entity prints), names an entity by index; builtins resolve by alias too.
     */
    public long lookup(String path) {
        if (path == null || path.isEmpty()) {
            return 0;
        }
        return lookup(Names.split(path));
    }

    /** The entity at a path already split into names, or 0. */
    public long lookup(String[] parts) {
        if (parts.length == 1) {
            String p = parts[0];
            if (isIndex(p)) {
                p = p.charAt(0) == '#' ? p.substring(1) : p; // #index: an anonymous entity as paths print it
                try {
                    return entities.getAny(Integer.parseInt(p));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
            long a = Builtin.alias(p);
            if (a != 0) {
                return a;
            }
        }
        return lookupBelow(0, parts);
    }

    /** True for a path element naming an entity by index: digits, or {@code #} and digits. */
    public static boolean isIndex(String p) {
        String digits = !p.isEmpty() && p.charAt(0) == '#' ? p.substring(1) : p;
        return !digits.isEmpty() && Names.allDigits(digits);
    }

    /** The entity at a path of names below entity index {@code parent} (0: the root), or 0. */
    public long lookupBelow(int parent, String[] parts) {
        long e = 0;
        for (String part : parts) {
            e = names.child(parent, part);
            if (e == 0) {
                return 0;
            }
            parent = Ids.index(e);
        }
        return e;
    }

    /** The parent index of entity index {@code i} (target of ChildOf, dense or sparse), or 0 for a root. */
    public int parentIndex(int i) {
        long[] type = tables.get(entities.table(i)).type();
        int p = sparse == null ? -1 : sparse.parentOf(type, i);
        return p >= 0 ? p : Types.parent(type);
    }

    /** The path of alive entity index {@code i}: names from the root joined by {@code .}; {@code #i} when anonymous. */
    public String path(int i) {
        String name = entities.name(i);
        if (name == null) {
            return "#" + i;
        }
        int p = parentIndex(i);
        if (p == 0) {
            return name;
        }
        return path(p) + "." + name;
    }

    /** An id as text: an entity's path, or {@code (R,T)} for a pair. */
    public String idToString(long id) {
        if (Ids.isPair(id)) {
            return "(" + elementName(Ids.first(id)) + "," + elementName(Ids.second(id)) + ")";
        }
        return elementName(Ids.index(id));
    }

    /** The path of an entity index, {@code #index} when it is not alive, {@code 0} for the null id. */
    public String elementName(int index) {
        if (index == 0) {
            return "0";
        }
        return entities.getAny(index) == 0 ? "#" + index : path(index);
    }

    /** How an id is named in an error: its name when alive, else {@code #index} with its generation. */
    public String describe(long e) {
        if (Ids.isPair(e)) {
            return idToString(e);
        }
        int i = Ids.index(e);
        if (entities.isAlive(e) && entities.name(i) != null) {
            return entities.name(i);
        }
        return "#" + i + (Ids.generation(e) != 0 ? "v" + Ids.generation(e) : "");
    }
}
