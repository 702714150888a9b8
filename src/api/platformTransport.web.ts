// The web bundle's twin of platformTransport.ts: in a browser or web worker, fetch carries the
// requests and the browser applies its own proxy and certificate settings.
import type { TransportFactory } from './transport';
import { fetchTransport } from './fetchTransport';

export const platformTransport: TransportFactory = fetchTransport;
