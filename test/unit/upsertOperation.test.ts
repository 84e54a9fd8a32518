/**
 * Lead > Create or Update's definition (resources/lead/upsert.ts): its turn (the keys and leads it holds), its fields
 * in order, the texts of every field and choice, the match settings with their values and defaults. What it does with
 * Lofty's answers: upsert.test.ts.
 */
import { findOperation } from '../../nodes/Lofty/resources';
import { emailKey, phoneKey } from '../../nodes/Lofty/resources/lead/keys';

const upsert = findOperation('lead', 'upsert')!.op;

describe('the operation', () => {
	it("its turn: every email and phone of the person; the leads it reads: by path, and those a search answered", () => {
		expect(upsert.turn!.keys!({ email: 'A@x.com', phone: '4155550101', emails: ['b@x.com'], phones: ['+1 415 555 0101'] })).toEqual([emailKey('a@x.com'), emailKey('b@x.com'), phoneKey('4155550101')]);
		const reads = upsert.turn!.reads!;
		expect(reads({ method: 'GET', path: '/v1.0/leads/12' }, {})).toEqual(['leadId=12']);
		expect(reads({ method: 'PUT', path: '/v1.0/leads/12' }, {})).toEqual(['leadId=12']);
		expect(reads({ method: 'GET', path: '/v1.0/leads' }, { leads: [{ leadId: 3 }, {}] })).toEqual(['leadId=3', 'leadId=undefined']);
		expect(reads({ method: 'GET', path: '/v1.0/leads' }, { leads: 'x' })).toEqual([]);
		expect(reads({ method: 'POST', path: '/v1.0/leads' }, { leads: [{ leadId: 3 }] })).toEqual([]);
		expect(reads({ method: 'GET', path: '/v1.0/leads/12/notes' }, {})).toEqual([]);
		expect(upsert.turn!.scope).toBe('account');
	});

	it('its fields: the first name first, the match settings, Create\'s fields (those for new leads only said so), the options', () => {
		const names = upsert.params.map((p) => p.name);
		expect(names.slice(0, 4)).toEqual(['firstName', 'matchBy', 'email', 'phone']);
		expect(names.slice(-5)).toEqual(['tags', 'onMultiple', 'whenExists', 'phoneOnly', 'replaceTags']);
		expect(names).not.toContain('tagsAdd');
		expect(upsert.params[0].hint).toBeUndefined();
		expect(upsert.params.find((p) => p.name === 'welcomeEmail')!.description).toMatch(/\(new leads only\)$/);
		expect(upsert.params.find((p) => p.name === 'lastName')!.description ?? '').not.toMatch(/new leads only/);
		expect(upsert).toEqual(expect.objectContaining({ value: 'upsert', name: 'Create or Update', method: 'POST', effect: 'write', path: '/v1.0/leads' }));
		expect(upsert.simplify!.slice(0, 6)).toEqual(['action', 'matchedBy', 'otherMatches', 'notMergedWith', 'keptFields', 'note']);
		expect(names.filter((n) => n === 'tags')).toHaveLength(1);
		const create = findOperation('lead', 'create')!.op;
		for (const name of ['assignGroupId', 'welcomeEmail', 'leadAlert', 'content', 'isPin']) {
			const own = create.params.find((p) => p.name === name)!;
			expect(upsert.params.find((p) => p.name === name)!.description).toBe(`${own.description ?? own.label} (new leads only)`);
		}
	});

	it('every field and choice says what it is; the match settings and options with their values and defaults', () => {
		for (const p of upsert.params) {
			expect(p.label).not.toBe('');
			expect(p.description ?? p.label).not.toBe('');
			for (const o of p.options ?? []) expect([o.name, o.description]).not.toContain('');
		}
		const settings = Object.fromEntries(
			upsert.params
				.filter((p) => ['matchBy', 'email', 'phone', 'onMultiple', 'whenExists', 'phoneOnly', 'replaceTags'].includes(p.name))
				.map((p) => [p.name, [p.label, p.type, p.in, p.group ?? '', p.required ?? false, p.default ?? '', (p.options ?? []).map((o) => o.value)]]),
		);
		expect(settings).toEqual({
			matchBy: ['Match By', 'options', 'local', '', true, 'emailThenPhone', ['email', 'emailThenPhone', 'phone']],
			email: ['Email', 'string', 'local', '', false, '', []],
			phone: ['Phone', 'string', 'local', '', false, '', []],
			onMultiple: ['If Several Match', 'options', 'local', 'options', false, 'updateNewest', ['fail', 'updateNewest']],
			whenExists: ['When the Lead Exists', 'options', 'local', 'options', false, 'fillEmpty', ['fillEmpty', 'updateAll']],
			phoneOnly: ['If Only the Phone Matches', 'options', 'local', 'options', false, 'newLead', ['update', 'newLead', 'nameAgrees']],
			replaceTags: ['Replace Tags', 'boolean', 'local', 'options', false, '', []],
		});
		const phone = upsert.params.find((p) => p.name === 'phone')!;
		expect([phone.maxLength, phone.contact, phone.top]).toEqual([20, 'leadPhone', true]);
		expect(upsert.params.find((p) => p.name === 'email')!.contact).toBe('email');
	});
});
