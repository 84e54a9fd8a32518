/**
 * docs/api-readings.md, row 12: the 13 number fields the OpenAPI types as integers are whole numbers in the node
 * (ParamDef `integer`), wherever they appear; a decimal is refused naming the field, before anything is sent.
 * The operations' own tests (test/node/leadReadings, webhook, calendar) run them against both sandbox readings.
 */
import { InvalidValue, convert } from '../../nodes/Lofty/model/params';
import type { ParamDef } from '../../nodes/Lofty/model/types';
import { RESOURCES } from '../../nodes/Lofty/resources';

function* allParams(): Generator<{ where: string; p: ParamDef }> {
	for (const resource of RESOURCES) {
		for (const op of resource.operations) {
			for (const p of op.params) {
				yield { where: `${resource.value}.${op.value}`, p };
				for (const field of p.fields ?? []) yield { where: `${resource.value}.${op.value}.${p.name}`, p: field };
			}
		}
	}
}

/** The OpenAPI schema and field of a parameter: `LeadInquiry.priceMin`, `WebhookRequest.limit`. */
function schemaField(where: string, p: ParamDef): string {
	const key = p.key ?? p.name;
	if (where.startsWith('lead.')) {
		if (key.startsWith('inquiry.') || where === 'lead.addInquiry') return `LeadInquiry.${key.replace('inquiry.', '')}`;
		if (key.startsWith('property.') || where === 'lead.updateProperty') return `LeadProperty.${key.replace('property.', '')}`;
	}
	if (where === 'webhook.create') return `WebhookRequest.${key}`;
	if (where === 'calendar.getAvailableSlots') return `AvailableMeetings.${key}`;
	return `${where}.${key}`;
}

const INTEGER_FIELDS = [
	'LeadInquiry.priceMin',
	'LeadInquiry.priceMax',
	'LeadInquiry.bedroomsMin',
	'LeadInquiry.bedroomsMax',
	'LeadProperty.price',
	'LeadProperty.priceMin',
	'LeadProperty.priceMax',
	'LeadProperty.bedrooms',
	'LeadProperty.squareFeet',
	'LeadProperty.parkingSpace',
	'LeadProperty.floors',
	'WebhookRequest.limit',
	'AvailableMeetings.limit',
];

describe('whole-number fields', () => {
	const integers = [...allParams()].filter(({ p }) => p.integer);

	it('are exactly the 13 integer fields of the OpenAPI, in every operation that has them', () => {
		expect([...new Set(integers.map(({ where, p }) => schemaField(where, p)))].sort()).toEqual([...INTEGER_FIELDS].sort());
		// the decimals of the same schemas stay decimals
		const decimals = [...allParams()].filter(({ where, p }) => ['LeadProperty.bathrooms', 'LeadProperty.lotSize'].includes(schemaField(where, p)));
		expect(decimals.length).toBeGreaterThan(0);
		expect(decimals.every(({ p }) => !p.integer)).toBe(true);
		// lead create, update, Create or Update (Create's fields), Add Inquiry and Update Property: the inquiry and
		// property fields appear in all five
		expect(new Set(integers.map(({ where }) => where))).toEqual(
			new Set(['lead.create', 'lead.update', 'lead.upsert', 'lead.addInquiry', 'lead.updateProperty', 'webhook.create', 'calendar.getAvailableSlots']),
		);
	});

	it.each(integers.map(({ where, p }) => [`${where} ${p.label}`, p] as const))('%s takes whole numbers and refuses decimals', (_, p) => {
		expect(convert(p, 3)).toBe(3);
		expect(convert(p, '12')).toBe(12);
		expect(() => convert(p, 2.5)).toThrow(new InvalidValue(p.label, 'must be a whole number, got 2.5'));
	});
});
