// Types for the undici modules the API layer loads by deep path (see transport.ts and
// network/dispatchers.ts): they are the same objects the package's index exports, so its own
// declarations describe them.
declare module 'undici/lib/dispatcher/agent' {
  import { Agent } from 'undici';
  export = Agent;
}

declare module 'undici/lib/dispatcher/proxy-agent' {
  import { ProxyAgent } from 'undici';
  export = ProxyAgent;
}

declare module 'undici/lib/dispatcher/pool' {
  import { Pool } from 'undici';
  export = Pool;
}

declare module 'undici/lib/api/api-request' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}

declare module 'undici/lib/api/api-connect' {
  import type { Dispatcher } from 'undici';
  function connect(this: Dispatcher, options: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData>;
  export = connect;
}
