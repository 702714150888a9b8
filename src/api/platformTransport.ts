// The transport an ApiClient uses when it is given none: on Node, undici. The web bundle takes
// platformTransport.web.ts instead (esbuild.js, "web twins"), so undici never reaches it.
import type { TransportFactory } from './transport';
import { undiciTransport } from './network/undiciTransport';

export const platformTransport: TransportFactory = undiciTransport;
