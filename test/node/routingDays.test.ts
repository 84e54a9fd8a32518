/**
 * Routing > Update Rule, Active Days (issue 37, item 10; docs/api-readings.md row 22): Lofty says only "between 1
 * and 7". The sandbox answers under both numberings (`activeDays`: iso, fromSunday); a rule picked for Sunday is
 * active on Sunday when Active Day Numbering matches Lofty's, and on Saturday (the danger the field names) when not.
 */
import type { INodeProperties } from 'n8n-workflow';

import { READING_VALUES } from '../../sandbox';
import { ROUTING_IDS, activeWeekdays, routingState } from '../../sandbox/resources/routing';
import { run, node, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const weekdays = () => activeWeekdays(routingState(sandbox().store).rules.find((r) => r.id === BigInt(ROUTING_IDS.zillowRuleId))!.activeDays);
const SUNDAY = 7;
const update = (fields: Record<string, unknown>) => ({ resource: 'routing', operation: 'updateRule', type: '1', ruleId: ROUTING_IDS.zillowRuleId, updateFields: fields });
const numberingFor = (reading: string) => (reading === 'iso' ? 'iso' : 'fromSunday');

describe.each(READING_VALUES.activeDays)('Active Days under the %s numbering', (reading) => {
	beforeEach(() => sandbox().readings.set({ activeDays: reading }));

	it('Sunday and Monday picked with the matching Active Day Numbering are Sunday and Monday in Lofty', async () => {
		await run(sandbox(), update({ activeDays: [SUNDAY, 1], activeDayNumbering: numberingFor(reading) }));
		expect(weekdays()).toEqual(['Monday', 'Sunday']);
		const sent = JSON.parse(sandbox().requests[0].body).activeHours.activeDays;
		expect(sent).toEqual(reading === 'iso' ? [7, 1] : [1, 2]);
		// Get Rules gives back what was set, in Lofty's numbering.
		const [got] = await run(sandbox(), { resource: 'routing', operation: 'getRules', type: '1', output: 'raw' });
		expect((got.json.activeHours as { activeDays: number[] }).activeDays).toEqual(reading === 'iso' ? [1, 7] : [1, 2]);
	});

	it('the other numbering shifts every day by one: what the field description warns of', async () => {
		await run(sandbox(), update({ activeDays: [SUNDAY], activeDayNumbering: reading === 'iso' ? 'fromSunday' : 'iso' }));
		expect(weekdays()).toEqual([reading === 'iso' ? 'Monday' : 'Saturday']);
	});
});

it('the picker names days without numbers and says which numbering is assumed and why', () => {
	const props = node.description.properties.filter((p) => p.displayOptions?.show?.operation?.includes('updateRule'));
	const fields = (props.find((p) => p.name === 'updateFields')?.options ?? []) as INodeProperties[];
	const days = fields.find((p) => p.name === 'activeDays')!;
	expect(days.options!.map((o) => o.name)).toEqual(['Friday', 'Monday', 'Saturday', 'Sunday', 'Thursday', 'Tuesday', 'Wednesday']);
	expect(days.description).toMatch(/without saying which day is 1: the node sends Monday as 1 and Sunday as 7 \(ISO 8601\)/);
	const numbering = fields.find((p) => p.name === 'activeDayNumbering')!;
	expect(numbering.default).toBe('iso');
	expect(numbering.description).toMatch(/Lofty says only "between 1 and 7"/);
});
