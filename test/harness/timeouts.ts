/** jest setup file: every test's timeout comes from test/harness/budgets.ts (a test may name a longer budget there). */
import { TEST_TIMEOUT_MS } from './budgets';

jest.setTimeout(TEST_TIMEOUT_MS);
