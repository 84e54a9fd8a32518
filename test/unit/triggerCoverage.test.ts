import type { INodeProperties } from 'n8n-workflow';

import { LoftyPollingTrigger } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';

/** What the Lofty Trigger cannot see, said where the events and the scope are picked (issue 30). */

const trigger = new LoftyTrigger().description.properties;
const option = (props: INodeProperties[], name: string) => (props.find((p) => p.name === 'options')?.options as INodeProperties[]).find((o) => o.name === name)!;

describe('Lofty Trigger: what it will not see', () => {
	it('under Trigger On, its hint and description: no automatic calls, emails or texts; agents get their own leads, an owner or admin the team, hidden leads only their agent', () => {
		const events = trigger.find((p) => p.name === 'events');
		expect(events?.hint).toMatch(/automatic calls, emails and texts, nor events of leads the credential can't see/);
		const hint = events?.description ?? '';
		expect(hint).toMatch(/automatic calls, emails and texts .*only manual and logged ones fire/);
		expect(hint).toMatch(/Company Owner's or Admin's gets the whole team's, except hidden leads, which only their assigned agent is told about/);
		expect(hint).toMatch(/Options > Delivery Scope/);
	});

	it('Delivery Scope says which credential sees the whole team; Batch Size says Lofty also reads it per 30 minutes', () => {
		const scope = option(trigger, 'permissionMode');
		expect(scope.description).toMatch(/whole team, use a Company Owner's or Admin's credential/);
		expect((scope.options as Array<{ value: number; description: string }>).find((o) => o.value === 0)!.description).toMatch(/Hidden leads only reach their assigned agent/);
		expect(option(trigger, 'batchSize').description).toMatch(/most notifications per 30 minutes/);
	});

	it('the Polling Trigger\'s Include Automatic Messages says the same of automatic calls, texts and emails', () => {
		const automatic = option(new LoftyPollingTrigger().description.properties, 'includeAutomatic');
		expect(automatic.description).toMatch(/calls, texts and emails Lofty makes automatically .* as in the Lofty Trigger, whose webhooks fire only for manual and logged ones/);
	});
});
