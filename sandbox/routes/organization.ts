import type { SandboxModule } from '../module';

/** Organization endpoints. */
export const organizationModule: SandboxModule = { name: 'organization', routes: [] };
