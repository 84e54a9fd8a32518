/** The system log resource: GET /v1.0/systemLogs (timelines live in the core store). */
import type { SandboxModule } from '../../core/module';
import { systemLogRoutes } from './routes';

/** System log endpoints. */
export const systemLogModule: SandboxModule = { name: 'systemLog', routes: systemLogRoutes };
