import type { SandboxModule } from '../module';

/** Custom Field endpoints. */
export const customFieldModule: SandboxModule = { name: 'customField', routes: [] };
