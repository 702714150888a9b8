// The web bundle's twin of platformTransport.ts: in a browser or web worker, fetch carries the
// requests and the browser applies its own proxy and certificate settings.
import { fetchTransport } from './fetchTransport';
import type { TransportFactory } from './transport';

export const platformTransport: TransportFactory = fetchTransport;
