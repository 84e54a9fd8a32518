import { agentMethods } from './agent';
import { aiMethods } from './ai';
import { appointmentMethods } from './appointment';
import { calendarMethods } from './calendar';
import { callMethods } from './call';
import { communicationMethods } from './communication';
import { customFieldMethods } from './customField';
import { leadPipelineMethods } from './leadPipeline';
import { leadPondMethods } from './leadPond';
import { listingMethods } from './listing';
import { manualLogMethods } from './manualLog';
import { memberMethods } from './member';
import { noteMethods } from './note';
import { notificationMethods } from './notification';
import { opportunityMethods } from './opportunity';
import { organizationMethods } from './organization';
import { routingMethods } from './routing';
import { salesAgentMethods } from './salesAgent';
import { tagMethods } from './tag';
import { taskMethods } from './task';
import { transactionMethods } from './transaction';
import { vendorMethods } from './vendor';
import { webhookMethods } from './webhook';
import { leadMethods } from './lead';
import type { ListSearchMethod, LoadOptionsMethod, MethodSet } from './types';
import { customFieldChoiceMethods } from './customFieldMapping';
export { resourceMapping } from './customFieldMapping';

const SETS: MethodSet[] = [leadMethods, agentMethods, aiMethods, appointmentMethods, calendarMethods, callMethods, communicationMethods, customFieldMethods, leadPipelineMethods, leadPondMethods, listingMethods, manualLogMethods, memberMethods, noteMethods, notificationMethods, opportunityMethods, organizationMethods, routingMethods, salesAgentMethods, tagMethods, taskMethods, transactionMethods, vendorMethods, webhookMethods, customFieldChoiceMethods];

/** All list searches and dropdowns, merged for the node's `methods`. */
export const listSearch: Record<string, ListSearchMethod> = Object.assign({}, ...SETS.map((s) => s.listSearch));
export const loadOptions: Record<string, LoadOptionsMethod> = Object.assign({}, ...SETS.map((s) => s.loadOptions));
