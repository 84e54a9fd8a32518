/**
 * Time budgets the tests give the node. A loopback request to the sandbox takes milliseconds; a loaded machine (or
 * `npm run test:starved`) stalls a process for up to 400 ms at a time. A budget for a step that should succeed is at
 * least ten such stalls; a step meant to run out of time waits for something that never comes within the budget
 * (a 'slow' fault of HUNG_MS, which the sandbox ends when the client hangs up).
 */
/** A budget for one loopback request (or a few) that is expected to succeed. */
export const STEP_BUDGET_MS = 4000;
/** How long a 'slow' fault holds an answer the node must give up on: far past any budget above. */
export const HUNG_MS = 120_000;
