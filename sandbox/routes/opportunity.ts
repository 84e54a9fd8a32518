import type { SandboxModule } from '../module';

/** Opportunity endpoints. */
export const opportunityModule: SandboxModule = { name: 'opportunity', routes: [] };
