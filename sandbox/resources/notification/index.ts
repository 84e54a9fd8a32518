/** The notification resource (V2): task reminders, system SMS and email to the caller. */
import type { SandboxModule } from '../../core/module';
import { notificationRoutes, seedNotification } from './routes';

export * from './routes';

/** Notification endpoints. */
export const notificationModule: SandboxModule = { name: 'notification', routes: notificationRoutes, seed: seedNotification };
