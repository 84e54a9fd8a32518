/** Endpoint groups beyond leads and system logs, each with its own routes, state and seed. */
import type { SandboxModule } from '../core/module';
import { agentModule } from './agent/routes';
import { aiModule } from './ai/routes';
import { appointmentModule } from './appointment';
import { calendarModule } from './calendar/routes';
import { callModule } from './call/routes';
import { communicationModule } from './communication';
import { customFieldModule } from './customField/routes';
import { leadPipelineModule } from './leadPipeline/routes';
import { leadPondModule } from './leadPond/routes';
import { listingModule } from './listing';
import { manualLogModule } from './manualLog/routes';
import { noteModule } from './note/routes';
import { notificationModule } from './notification/routes';
import { opportunityModule } from './opportunity/routes';
import { organizationModule } from './organization/routes';
import { routingModule } from './routing';
import { salesAgentModule } from './salesAgent';
import { tagModule } from './tag/routes';
import { taskModule } from './task';
import { transactionModule } from './transaction';
import { vendorModule } from './vendor/routes';
import { webhookModule } from './webhook';

export const MODULES: SandboxModule[] = [agentModule, aiModule, appointmentModule, calendarModule, callModule, communicationModule, customFieldModule, leadPipelineModule, leadPondModule, listingModule, manualLogModule, noteModule, notificationModule, opportunityModule, organizationModule, routingModule, salesAgentModule, tagModule, taskModule, transactionModule, vendorModule, webhookModule];
