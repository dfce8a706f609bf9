package dev.quiver.storage;

/**
 * What an IsA instance gets of an id its base has (Flecs v4 {@code (OnInstantiate, policy)} trait on
 * the component, tag or relationship; FEATURES TRT-13): {@link #OVERRIDE} (the default) copies the id
 * and its value onto the instance when {@code (IsA, base)} is added; {@link #INHERIT} leaves it on
 * the base, where {@code get}, {@code has} and queries find it through IsA; {@link #DONT_INHERIT}
 * neither copies nor shares it. The plain {@code DontInherit} tag (older Flecs) is read as
 * {@code (OnInstantiate, DontInherit)}. Builtin ids (Prefab, Disabled, Component, every trait) and
 * pairs of builtin relationships (ChildOf, the cleanup and trait pairs) are never copied nor
 * shared: {@link #DONT_INHERIT}. IsA pairs are {@link #INHERIT}, as in Flecs v4 (conformance NOTES
 * K5): an instance of {@code Mid} with {@code (IsA, Base)} sees that pair through {@code Mid}.
 */
public enum OnInstantiate {
    OVERRIDE, INHERIT, DONT_INHERIT
}
