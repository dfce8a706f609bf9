/**
 * The {@code quiver} command line (picocli): {@link dev.quiver.cli.Quiver} and one subcommand class
 * per verb ({@code init load add remove component set delete show query stats check snapshot
 * restore demo}).
 *
 * <p>Mutating verbs open the world as its only writer; {@code query}, {@code show}, {@code stats},
 * {@code check} and {@code snapshot} open it read-only. Errors are mapped to exit codes in one place,
 * {@code Errors}: a {@link dev.quiver.error.BadInputException} or a bad argument is exit code 2,
 * anything else (an I/O failure, a corrupt world, an internal error) 1, and every error prints one line, {@code quiver: <message>}, on stderr
 * ({@code --verbose} adds the stack trace). Progress bars are drawn only on an interactive console.
 */
package dev.quiver.cli;
