/**
 * The communication resource: lead call / email / text histories, single lookups, agent searches, sending SMS and
 * email. Its state (./state.ts) and seed also hold the calls and manual logs of the call and manualLog resources.
 */
import type { SandboxModule } from '../../core/module';
import { communicationRoutes } from './routes';
import { seedCommunications } from './seed';

export * from './state';
export { COMM_SEED } from './seed';

/** Communication endpoints; the seed also holds the calls and manual logs of the Call and Manual Log groups. */
export const communicationModule: SandboxModule = { name: 'communication', routes: communicationRoutes, seed: seedCommunications };
