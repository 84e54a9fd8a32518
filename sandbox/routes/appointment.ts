import type { SandboxModule } from '../module';

/** Appointment endpoints. */
export const appointmentModule: SandboxModule = { name: 'appointment', routes: [] };
