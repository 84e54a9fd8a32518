/**
 * Time budgets the tests give the node, and every test's timeout. A loopback request to the sandbox takes
 * milliseconds; a loaded machine (or `npm run test:starved`) stalls a process for up to 400 ms at a time. A budget for
 * a step that should succeed is at least ten such stalls; a step meant to run out of time waits for something that
 * never comes within the budget (a 'slow' fault of HUNG_MS, which the sandbox ends when the client hangs up).
 *
 * A test's timeout is not a speed check: it only ends a test that hangs. Every test file gets TEST_TIMEOUT_MS (the
 * setup file test/harness/timeouts.ts); a test that runs long on purpose names one of the longer budgets below.
 * `npm run test:starved` multiplies them all by STARVED_FACTOR (LOFTY_TIMEOUT_FACTOR).
 */
/** A budget for one loopback request (or a few) that is expected to succeed. */
export const STEP_BUDGET_MS = 4000;
/** How long a 'slow' fault holds an answer the node must give up on: far past any budget above. */
export const HUNG_MS = 120_000;

/** Multiplies every timeout below: 1, or LOFTY_TIMEOUT_FACTOR (`npm run test:starved` sets 3). */
const FACTOR = Number(process.env.LOFTY_TIMEOUT_FACTOR ?? 1) || 1;

/** Every test's timeout unless it names another: thirty of a loaded machine's stalls past a few steps. */
export const TEST_TIMEOUT_MS = 30_000 * FACTOR;
/** A test that waits out Lofty's read delay or a node wait of a few seconds on purpose, several times. */
export const LONG_TEST_MS = 60_000 * FACTOR;
/** A test that drives many polls, pages or windows (a backlog, a heal, a budget run out on purpose). */
export const VERY_LONG_TEST_MS = 240_000 * FACTOR;
/**
 * A property of the differential tests: `runs` generated cases (each a few sandbox runs; one that waits out the
 * node's 3.75 s read wait or a 1 s timeout takes a few seconds), plus the shrinking of a failure.
 */
export const propertyBudgetMs = (runs: number): number => (60_000 + runs * 12_000) * FACTOR;
