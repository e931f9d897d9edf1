// Module hooks of test/support/dlv-loaded-packages.js: every module Node loads through its ESM loader
// (ESM files, and CommonJS ones imported from ESM) is sent to the main thread, which keeps the list.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, next) {
  port.postMessage(url);
  return next(url, context);
}
