/** A Task > Create of the seeded task lead's welcome call, due 09:00 without offset, for its agent (tests of zones). */
import { TASK_SEED } from '../../sandbox/resources/task';
import { byId } from '../harness/sandbox';

export const welcomeCall = (extra: Record<string, unknown> = {}) => ({
	resource: 'task',
	operation: 'create',
	leadId: byId(TASK_SEED.leadId),
	type: 'Call',
	content: 'Welcome call',
	endAt: '2026-12-01T09:00:00',
	assignedRole: 'Agent',
	...extra,
});
