/** The custom field resource: the team's lead custom fields (list, create). */
import type { SandboxModule } from '../../core/module';
import { customFieldRoutes, seedCustomField } from './routes';

export * from './routes';

/** Custom Field endpoints. */
export const customFieldModule: SandboxModule = { name: 'customField', routes: customFieldRoutes, seed: seedCustomField };
