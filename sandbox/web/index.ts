/** The try-out page served by the sandbox (`startSandbox({ web: true })`, on in the standalone sandbox). */
export { WEB_PATH, tryoutHandler } from './routes';
export { type EventKind, type EventRequest, type EventResult, listDeliveries, listLeads, listSubscriptions, makeEvent } from './actions';
