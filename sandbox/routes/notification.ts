import type { SandboxModule } from '../module';

/** Notification endpoints. */
export const notificationModule: SandboxModule = { name: 'notification', routes: [] };
