// Which services answered a steering request (cancel, resume, fork) with "not offered" (404/405,
// docs/PROTOCOL.md, Steering): remembered per normalised base URL for the extension host's life,
// so every run panel of that service hides Cancel/Resume/Fork (and its menus, see
// src/steering/steeringSetup.ts), also after switching to another service and back.
// Plain Node: the commands mark, the panels' sessions listen.

export type SteeringListener = (service: string) => void;

export class SteeringSupport {
  private readonly notOffered = new Set<string>();
  private readonly listeners = new Set<SteeringListener>();

  /** False once `service` answered a steering request "not offered". */
  offered(service: string | undefined): boolean {
    return service === undefined || !this.notOffered.has(service);
  }

  /** Remembers the answer; true only the first time for `service` (when the listeners hear of it). */
  markNotOffered(service: string): boolean {
    if (this.notOffered.has(service)) {
      return false;
    }
    this.notOffered.add(service);
    for (const listener of [...this.listeners]) {
      listener(service);
    }
    return true;
  }

  /** Called with the service each time one is newly marked; returns the unsubscribe. */
  onNotOffered(listener: SteeringListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

/** The one registry of the extension host: commands and run panels meet here without wiring. */
export const steeringSupport = new SteeringSupport();
