// The one rule for skipping a command's question (Revoke, Delete, Cancel Run...): only in the
// extension-host test run (`trustedAutomation`, true only in ExtensionMode.Test), and only when
// the caller passes `confirm: false`. Any other caller — another extension, a keybinding, a
// model's command link — is always asked. Pure.

/** True when the question may be skipped: the test run, and `arg.confirm` is exactly false. */
export function questionSkipped(trustedAutomation: boolean, arg: unknown): boolean {
  return (
    trustedAutomation === true &&
    typeof arg === 'object' &&
    arg !== null &&
    (arg as { confirm?: unknown }).confirm === false
  );
}
