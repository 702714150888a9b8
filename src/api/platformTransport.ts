// The transport an ApiClient uses when it is given none: on Node, undici. The web bundle takes
// platformTransport.web.ts instead (esbuild.js, "web twins"), so undici never reaches it.
import { undiciTransport } from './network/undiciTransport';
import type { TransportFactory } from './transport';

export const platformTransport: TransportFactory = undiciTransport;
