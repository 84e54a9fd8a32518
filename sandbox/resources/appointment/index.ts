/** The appointment resource: GET /v1.0/appts (V2 appointments are served by the task resource's /v2.0/tasks endpoints). */
import type { SandboxModule } from '../../core/module';
import { appointmentRoutes } from './routes';
import { seedAppointments } from './seed';

/** Appointment endpoints. */
export const appointmentModule: SandboxModule = { name: 'appointment', routes: appointmentRoutes, seed: seedAppointments };
