/**
 * A sandbox started again with the try-out's ID file (core/idStart.ts, LOFTY_SANDBOX_IDS_FILE) hands out no ID an
 * earlier start handed out: a lead, a task and a note made after each start differ from those made before, stay above
 * 2^53 and come back exact in the JSON text; the demo data keeps its IDs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import axios from 'axios';

import { SEED_IDS, type Sandbox, startSandbox } from '../../sandbox';
import { claimIdStart } from '../../sandbox/core/idStart';

const TWO_53 = 2n ** 53n;

/** POSTs and returns the first ID named `key` in the answer's text (read as text: the IDs are above 2^53). */
const make = async (sb: Sandbox, url: string, body: object, key: string): Promise<string> => {
	const r = await axios.post(`${sb.url}${url}`, body, { headers: { Authorization: `token ${sb.apiKey}` }, transformResponse: (t) => t, validateStatus: () => true });
	const m = new RegExp(`"${key}":"?(\\d+)`).exec(r.data as string);
	if (!m) throw new Error(`${url}: ${r.status} ${String(r.data).slice(0, 300)}`);
	return m[1];
};

describe('IDs across sandbox restarts (the try-out)', () => {
	let dir: string;
	const started: Sandbox[] = [];
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-ids-'));
	});
	afterEach(async () => {
		for (const sb of started.splice(0)) await sb.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	/** One start as the CLI makes it with LOFTY_SANDBOX_IDS_FILE set; makes a lead, a task on it and a note on it. */
	const oneStart = async (file: string) => {
		const sb = await startSandbox({ port: 0, idStart: claimIdStart(file) });
		started.push(sb);
		const leadId = await make(sb, '/v1.0/leads', { firstName: 'Restart', lastName: `Probe ${started.length}`, emails: [`probe${started.length}@example.com`] }, 'leadId');
		const taskId = await make(sb, '/v1.0/tasks', { leadId, content: 'Call back', type: 'Call', assignedRole: 'Agent', deadline: Date.now() + 86_400_000 }, 'taskId');
		const noteId = await make(sb, `/v1.0/notes`, { leadId, content: 'Note after a restart', isPin: false }, 'noteId');
		const seeded = sb.store.getLead(SEED_IDS.bigLeadId)?.leadId.toString();
		await sb.stop();
		started.splice(started.indexOf(sb), 1);
		return { leadId, taskId, noteId, seeded };
	};

	test('three starts: new leads, tasks and notes get IDs no earlier start handed out', async () => {
		const file = path.join(dir, 'sandbox-ids.json');
		const runs = [await oneStart(file), await oneStart(file), await oneStart(file)];
		for (const kind of ['leadId', 'taskId', 'noteId'] as const) {
			const ids = runs.map((r) => r[kind]);
			expect(new Set(ids).size).toBe(3);
		}
		for (const r of runs) {
			expect(BigInt(r.leadId) > TWO_53).toBe(true);
			expect(r.seeded).toBe(SEED_IDS.bigLeadId);
		}
		expect(BigInt(runs[1].leadId) > BigInt(runs[0].leadId)).toBe(true);
		expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ starts: 3 });
	});

	test('without the file the IDs are those of the seed (tests and `npm run sandbox` see the same IDs)', async () => {
		const a = await startSandbox({ port: 0 });
		started.push(a);
		const b = await startSandbox({ port: 0 });
		started.push(b);
		const body = { firstName: 'Same', lastName: 'Id', emails: ['same@example.com'] };
		expect(await make(a, '/v1.0/leads', body, 'leadId')).toBe(await make(b, '/v1.0/leads', body, 'leadId'));
	});
});
