/**
 * Evaluation stage: {@link dev.quiver.query.engine.Evaluator} runs a plan as a backtracking
 * interpreter over the world's tables, component index and reverse index; transitive closures
 * are computed per run with visited sets and memoisation.
 */
package dev.quiver.query.engine;
