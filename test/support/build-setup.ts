// @ts-expect-error: a plain JavaScript module (scripts/ runs before anything is compiled), without types.
import { buildIfStale } from '../../scripts/build.js';

/**
 * The tests that start processes (`dlv`, `node dist/service.js`) run the compiled build, as an
 * operator does: rebuilt here once, before any test file, when dist/ is older than src/ (about 5 s),
 * so that parallel test files never build it side by side.
 */
export default function setup(): void {
  buildIfStale();
}
