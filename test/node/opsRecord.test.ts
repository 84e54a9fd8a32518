/**
 * What `npm run test:ops` reads (test/harness/opsLog.ts): each request a node run sends is recorded with that run's
 * resource and operation, also when runs of two operations sharing an endpoint overlap; requests a test sends itself
 * carry none and are not recorded.
 */
import { TASK_SEED } from '../../sandbox/resources/task';
import { sentTo } from '../harness/opsLog';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

describe('test:ops records: the operation of the run that sent each request', () => {
	it('tags overlapping runs of Task > Get Many and Appointment > Get Many each with its own operation', async () => {
		const leadId = byId(TASK_SEED.leadId);
		const before = new Set(sentTo(sandbox()).map((r) => JSON.stringify(r)));
		const setup = await fetch(`${sandbox().url}/v2.0/tasks?leadId=${TASK_SEED.leadId}`, { headers: { authorization: `token ${sandbox().apiKey}` } });
		expect(setup.status).toBe(200);
		const [tasks, appointments] = await Promise.all([
			run(sandbox(), { resource: 'task', operation: 'getAll', leadId }),
			run(sandbox(), { resource: 'appointment', operation: 'getAll', leadId }),
		]);
		expect(tasks.length).toBeGreaterThan(0);
		expect(appointments.length).toBeGreaterThan(0);
		const added = sentTo(sandbox()).filter((r) => !before.has(JSON.stringify(r)));
		expect(added).toEqual([
			{ resource: 'appointment', operation: 'getAll', method: 'GET', path: '/v2.0/tasks', status: 200 },
			{ resource: 'task', operation: 'getAll', method: 'GET', path: '/v2.0/tasks', status: 200 },
		]);
	});

	it('records a refused request with its status and operation', async () => {
		await expect(run(sandbox(), { resource: 'task', operation: 'get', taskId: byId('99') })).rejects.toThrow();
		expect(sentTo(sandbox())).toContainEqual({ resource: 'task', operation: 'get', method: 'GET', path: '/v2.0/tasks/99', status: 404 });
	});
});
