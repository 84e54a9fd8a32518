/** The note resource: notes of a lead (create, get, list, update, delete). */
import type { SandboxModule } from '../../core/module';
import { noteRoutes, seedNotes } from './routes';

export * from './routes';

/** Note endpoints. */
export const noteModule: SandboxModule = { name: 'note', routes: noteRoutes, seed: seedNotes };
