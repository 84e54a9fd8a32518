/**
 * The task resource: V1 and V2 task endpoints over the one store of tasks and appointments (./state.ts), which the
 * appointment, calendar and notification resources share.
 */
import type { SandboxModule } from '../../core/module';
import { taskRoutes } from './routes';
import { seedTasks } from './seed';

export * from './state';
export { TASK_SEED } from './seed';

/** Task endpoints. */
export const taskModule: SandboxModule = { name: 'task', routes: taskRoutes, seed: seedTasks };
