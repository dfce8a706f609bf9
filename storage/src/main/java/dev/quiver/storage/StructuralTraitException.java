package dev.quiver.storage;

/**
 * A structural trait (Exclusive, Symmetric, PairIsTag, Acyclic, Final, CanToggle) added to
 * or removed from a relationship or component already in use (FEATURES TRT-21: they decide how
 * existing pairs are stored and checked, so they are set before first use). Nothing changed.
 */
public class StructuralTraitException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public StructuralTraitException(String message) {
        super(message);
    }
}
