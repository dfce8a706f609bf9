/**
 * Validator and compiler stages: {@link dev.quiver.query.plan.Planner} resolves names against a
 * world, reads relationship traits, orders the terms and picks an {@link dev.quiver.query.plan.OpKind}
 * per term, producing an immutable {@link dev.quiver.query.plan.Plan} of
 * {@link dev.quiver.query.plan.Step}s that prints as text.
 */
package dev.quiver.query.plan;
