/**
 * Loading Flecs Script files (the subset of the conformance worlds, {@code conformance/SUBSET.md})
 * into a world: {@link dev.quiver.snapshots.script.FlecsScriptLoader} and its error
 * {@link dev.quiver.snapshots.script.FlecsScriptException}.
 */
package dev.quiver.snapshots.script;
