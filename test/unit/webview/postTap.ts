// Page-side script for the harness page: lets a stand-in host see what the panel posts, by
// wrapping acquireVsCodeApi (installed by the harness) so each message also reaches a handler.
// Shared by the fake host of the page tests and the benchmarks that wire the real host.

/**
 * Script text that wraps `window.acquireVsCodeApi`: each message the panel posts is posted as
 * before (the harness still records it), then given to `handler`, a page-side function
 * expression of one argument, evaluated where the script is placed (so it may use that scope's
 * names). Install it before the panel's script runs.
 */
export function tapPostedMessages(handler: string): string {
  return `(() => {
  const handle = ${handler};
  const acquire = window.acquireVsCodeApi;
  window.acquireVsCodeApi = function () {
    const api = acquire();
    const post = api.postMessage;
    api.postMessage = function (m) {
      post(m);
      handle(m);
    };
    return api;
  };
})();`;
}
