/** GET /v1.0/appts: the appointments of a lead (a bare array). Records live in ../taskState.ts with the tasks. */
import type { SandboxModule } from '../../core/module';
import type { Route } from '../../core/router';
import { appointmentViewV1, leadFromQuery, seedAppointments, taskState } from '../task/state';

const routes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/appts',
		handler: (ctx) => {
			const lead = leadFromQuery(ctx);
			return { body: taskState(ctx.store).ofLead(lead.leadId, 'appointment').map((t) => appointmentViewV1(t, ctx.now)) };
		},
	},
];

/** Appointment endpoints (V2 appointments are served by the task module's /v2.0/tasks endpoints). */
export const appointmentModule: SandboxModule = { name: 'appointment', routes, seed: seedAppointments };
