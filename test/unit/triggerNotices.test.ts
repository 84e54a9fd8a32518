/**
 * The Lofty Trigger's panel shows one yellow notice (the setup: HTTPS, the Polling Trigger, Get Event Record); what
 * Lofty does not send is the hint under Trigger On, where the events are picked.
 */
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';

test('one notice on the Lofty Trigger; what Lofty does not send is the hint of Trigger On', () => {
	const props = new LoftyTrigger().description.properties;
	expect(props.filter((p) => p.type === 'notice').map((p) => p.name)).toEqual(['setupNotice']);
	expect(props.find((p) => p.name === 'events')?.hint).toMatch(/^Lofty does not send automatic calls/);
});
